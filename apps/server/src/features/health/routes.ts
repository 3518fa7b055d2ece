import { ZHealthResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAccess } from '../../platform/guard';
import { noRequestLimit } from '../../platform/request-limits';
import { APP_VERSION } from '../../platform/version';
import { createHealthProbe } from './probe';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database } = app.deps;
  const probe = createHealthProbe(app.deps);
  app.addHook('onClose', async () => probe.stop());
  app.get(
    '/api/health',
    {
      // Polled by load balancers, and answered from memory: no request limit.
      config: { ...publicAccess(), ...noRequestLimit() },
      schema: { tags: ['health'], response: { 200: ZHealthResponse, 503: ZHealthResponse } },
    },
    async (_request, reply) => {
      const { database: db, redis: cache } = await probe.read();
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
