import { ZHealthResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAccess } from '../../platform/guard';
import { isRedisReady } from '../../platform/redis-health';
import { APP_VERSION } from '../../platform/version';

const probe = async (fn: () => Promise<unknown>) => {
  const start = performance.now();
  try {
    await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
    return { ok: true, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
  } catch {
    return { ok: false, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
  }
};

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, redis } = app.deps;
  app.get(
    '/api/health',
    { config: publicAccess(), schema: { tags: ['health'], response: { 200: ZHealthResponse, 503: ZHealthResponse } } },
    async (_request, reply) => {
      const db = await probe(() => database.ping());
      const cache = redis
        ? isRedisReady(redis)
          ? await probe(() => redis.ping())
          : { ok: false, latencyMs: 0 }
        : null;
      // Without the database nothing works (503); without Redis the app keeps answering with
      // per-process limits and events, so it stays in the load balancer, marked degraded.
      const degraded = !db.ok || !(cache?.ok ?? true);
      reply.header('cache-control', 'no-store');
      return reply.status(db.ok ? 200 : 503).send({
        status: degraded ? 'degraded' : 'ok',
        database: { ...db, driver: database.driver },
        redis: cache,
        version: APP_VERSION,
      });
    },
  );
};
