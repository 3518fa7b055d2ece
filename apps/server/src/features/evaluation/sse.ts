import type { TRunEvent } from '@switchboard/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { streamSlot } from '../../platform/stream-slots';
import { runChannel } from './engine';
import * as repo from './repo';
import { getRunOr404 } from './service';

/**
 * GET /api/evaluation/runs/:runId/events: server-sent events of a run. The first event is a
 * snapshot; then every finished conversation and status change as the engine publishes them on the
 * event bus (in-process or Redis, so any app process can serve the stream).
 */
export const runEventsRoute = (app: FastifyInstance, byRun: SubaccountResolver) => {
  const { deps } = app;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/evaluation/runs/:runId/events',
    {
      config: { ...subaccountAccess('viewer', byRun), ...streamSlot() },
      schema: { tags: ['evaluation'], params: z.object({ runId: z.string().max(64) }) },
    },
    async (request, reply) => {
      const row = await getRunOr404(deps, tenantOf(request).subaccountId, request.params.runId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      app.lifecycle.holdEventStream(raw);
      let closed = false;
      const send = (event: TRunEvent) => {
        if (!closed) raw.write(`data: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = deps.bus.subscribe(runChannel(row.id), (event) => send(event as TRunEvent));
      const keepAlive = setInterval(() => raw.write(': ping\n\n'), 15_000);
      const finish = () => {
        if (closed) return;
        closed = true;
        clearInterval(keepAlive);
        unsubscribe();
      };
      request.raw.on('close', finish);
      raw.on('close', finish);
      send({ type: 'snapshot', run: await repo.runView(deps.db, row) });
    },
  );
};
