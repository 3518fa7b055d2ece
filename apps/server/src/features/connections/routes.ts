import {
  ZConnection,
  ZConnectionList,
  ZConnectionType,
  ZCreateConnectionRequest,
  ZDesignerChatRequest,
  ZDesignerChatResponse,
  ZUpdateBuildRequest,
  ZUpdateConnectionRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerConnectIdPrefix } from '../../platform/connect-id';
import { fromParam, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { widgetIdentitySecret } from './identity-secret';
import * as repo from './repo';
import * as service from './service';

const tags = ['connections'];
const ZConnectionParams = z.object({ connectionId: z.string().max(64) });
const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return (await repo.findConnection(deps.db, id))?.subaccountId ?? null;
};
const fromBody: SubaccountResolver = async (request) =>
  (request.body as { subaccountId?: string } | undefined)?.subaccountId;

/** Website widget and website block connections: create, read, save settings, change build, deploy, delete. */
export const connectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  registerConnectIdPrefix('con', async (db, id) => (await repo.findConnection(db, id))?.subaccountId ?? null);
  registerConnectIdPrefix('wgt', async (db, id) => (await repo.findConnectionByWidgetId(db, id))?.subaccountId ?? null);

  app.get(
    '/api/subaccounts/:subaccountId/connections',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId'), { client: 'read' }),
      schema: {
        tags,
        params: z.object({ subaccountId: z.string().max(64) }),
        querystring: z.object({ type: ZConnectionType.optional() }),
        response: { 200: ZConnectionList },
      },
    },
    async (request) => ({
      connections: await service.listConnections(deps.db, tenantOf(request).subaccountId, request.query.type),
    }),
  );

  app.post(
    '/api/connections',
    {
      config: subaccountAccess('member', fromBody),
      schema: { tags, body: ZCreateConnectionRequest, response: { 201: ZConnection } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createConnection(deps, tenantOf(request), request.body)),
  );

  app.get(
    '/api/connections/:connectionId',
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'read' }),
      schema: { tags, params: ZConnectionParams, response: { 200: ZConnection } },
    },
    async (request) => service.getConnection(deps.db, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.get(
    '/api/connections/:connectionId/identity-secret',
    {
      config: subaccountAccess('admin', fromConnection),
      schema: {
        tags,
        params: ZConnectionParams,
        response: { 200: z.object({ widgetId: z.string(), secret: z.string() }) },
      },
    },
    async (request, reply) => {
      const connection = await service.getConnection(
        deps.db,
        tenantOf(request).subaccountId,
        request.params.connectionId,
      );
      reply.header('cache-control', 'no-store');
      return { widgetId: connection.widgetId, secret: widgetIdentitySecret(deps.env, connection.widgetId) };
    },
  );

  app.put(
    '/api/connections/:connectionId',
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, body: ZUpdateConnectionRequest, response: { 200: ZConnection } },
    },
    async (request) =>
      service.updateSettings(deps.db, tenantOf(request).subaccountId, request.params.connectionId, request.body),
  );

  app.put(
    '/api/connections/:connectionId/update-build',
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, body: ZUpdateBuildRequest, response: { 200: ZConnection } },
    },
    async (request) =>
      service.updateBuild(deps.db, tenantOf(request).subaccountId, request.params.connectionId, request.body.buildId),
  );

  app.delete(
    '/api/connections/:connectionId',
    { config: subaccountAccess('member', fromConnection), schema: { tags, params: ZConnectionParams } },
    async (request, reply) => {
      await service.deleteConnection(deps, tenantOf(request).subaccountId, request.params.connectionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/connections/:connectionId/deploy',
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, response: { 200: ZConnection } },
    },
    async (request) => service.deployConnection(deps, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.post(
    '/api/connections/:connectionId/preview-chat',
    {
      // A reply spends the account's credits: members and admins only.
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, body: ZDesignerChatRequest, response: { 200: ZDesignerChatResponse } },
    },
    async (request) => service.previewChat(deps, tenantOf(request), request.params.connectionId, request.body),
  );
};
