import { timingSafeEqual } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendError } from '../../platform/error-handler';
import { publicAccess } from '../../platform/guard';
import { jobs } from '../../platform/jobs.schema';
import { gauge, renderMetrics } from '../../platform/metrics';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * GET /metrics in the Prometheus text format. Off unless METRICS_TOKEN is set (then 404, as if it
 * did not exist); with it, the scraper sends `Authorization: Bearer <METRICS_TOKEN>`.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { env, db } = app.deps;
  app.get('/metrics', { config: publicAccess(), schema: { hide: true } }, async (request, reply) => {
    if (!env.METRICS_TOKEN) return sendError(reply, 404, 'NOT_FOUND', 'No route for GET /metrics');
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token || !sameSecret(token, env.METRICS_TOKEN)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, 401, 'UNAUTHORIZED', 'Send the metrics token as a bearer token.');
    }
    // Jobs are shared by every process, so their figures come from the table itself.
    const rows = await db
      .select({ type: jobs.type, status: jobs.status, n: count() })
      .from(jobs)
      .groupBy(jobs.type, jobs.status);
    const jobLines = gauge(
      'switchboard_jobs',
      'Jobs in the jobs table, by type and status (queued, running, succeeded, failed).',
      rows.map((row) => ({ labels: { type: row.type, status: row.status }, value: Number(row.n) })),
    );
    reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').header('cache-control', 'no-store');
    return renderMetrics(jobLines);
  });
};
