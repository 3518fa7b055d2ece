import { ZConnectionDashboard, ZLaunchConnection, ZLaunchQuery, ZLaunchResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import { callerOf, type SubaccountResolver, subaccountAccess, tenantOf, userAccess } from '../../platform/guard';
import { findConnection } from '../connections/repo';
import { connectionDashboard } from './dashboard';
import * as service from './service';

const tags = ['launch'];
const ZConnectionParams = z.object({ connectionId: z.string().max(64) });
const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return /^con_[a-z0-9]{1,40}$/.test(id) ? ((await findConnection(deps.db, id))?.subaccountId ?? null) : null;
};

/** Launch (every sub-account's channels, pause and resume) and a sub-account's dashboard figures. */
export const launchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/launch',
    { config: userAccess(), schema: { tags, querystring: ZLaunchQuery, response: { 200: ZLaunchResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.launchOverview(deps, callerOf(request), request.query);
    },
  );

  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post(
      `/api/launch/connections/:connectionId/${action}`,
      {
        config: subaccountAccess('member', fromConnection),
        schema: { tags, params: ZConnectionParams, response: { 200: ZLaunchConnection } },
      },
      async (request) =>
        service.setConnectionPaused(
          deps,
          { subaccountId: tenantOf(request).subaccountId, userId: callerOf(request).userId },
          request.params.connectionId,
          paused,
        ),
    );
  }

  app.get(
    '/api/connect/:connectId/dashboard',
    {
      config: subaccountAccess('viewer', fromConnectId()),
      schema: { tags, params: z.object({ connectId: z.string().max(64) }), response: { 200: ZConnectionDashboard } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return connectionDashboard(deps.db, tenantOf(request));
    },
  );
};
