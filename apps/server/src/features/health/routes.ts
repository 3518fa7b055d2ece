import { ZHealthResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicAccess } from '../../platform/guard';
import { noRequestLimit } from '../../platform/request-limits';
import { APP_VERSION } from '../../platform/version';
import { createHealthProbe } from './probe';

/** Liveness and readiness, for a load balancer or an orchestrator's probes. */
const ZProbeAnswer = z.object({
  status: z.enum(['live', 'ready', 'draining', 'unavailable']),
  version: z.string(),
});

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

  // The process answers: it is alive, whatever its database (a restart would not mend that).
  app.get(
    '/api/health/live',
    {
      config: { ...publicAccess(), ...noRequestLimit() },
      schema: { tags: ['health'], response: { 200: ZProbeAnswer } },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'live', version: APP_VERSION }),
  );

  // Whether to send it work: 503 from the moment it is told to stop, and while its database is down.
  app.get(
    '/api/health/ready',
    {
      config: { ...publicAccess(), ...noRequestLimit() },
      schema: { tags: ['health'], response: { 200: ZProbeAnswer, 503: ZProbeAnswer } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!app.lifecycle.ready) return reply.status(503).send({ status: 'draining', version: APP_VERSION });
      const { database: db } = await probe.read();
      return reply.status(db.ok ? 200 : 503).send({ status: db.ok ? 'ready' : 'unavailable', version: APP_VERSION });
    },
  );
};
