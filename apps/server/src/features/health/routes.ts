import { ZHealthResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAccess } from '../../platform/guard';

const VERSION = process.env.npm_package_version ?? '0.0.0';

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
      const cache = redis ? await probe(() => redis.ping()) : null;
      const ok = db.ok && (cache?.ok ?? true);
      reply.header('cache-control', 'no-store');
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: { ...db, driver: database.driver },
        redis: cache,
        version: VERSION,
      });
    },
  );
};
