import {
  ZAppToolGroupsResponse,
  ZConnectIntegrationRequest,
  ZConnectIntegrationResponse,
  ZIntegrationAppsResponse,
  ZIntegrationConnection,
  ZIntegrationConnectionsResponse,
  ZIntegrationStatusResponse,
  ZSandboxRecordsResponse,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromCurrentSubaccount, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { discoverAppTools } from '../agents/app-tools';
import { fromAgentParam } from '../agents/routes';
import * as repo from './repo';
import { registerComposioRunner } from './runner';
import * as service from './service';

const tags = ['integrations'];
const ZIntegrationParams = z.object({ integrationId: z.string().max(64) });

/** The sub-account of the connection in the path; another tenant's or an unknown id answers 404. */
const fromIntegration: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { integrationId?: string }).integrationId ?? '';
  return /^icn_[a-z0-9]{1,40}$/.test(id) ? ((await repo.findConnection(deps.db, id))?.subaccountId ?? null) : null;
};

/** The OAuth callback's sub-account: the one of the connection its state names. */
const fromState: SubaccountResolver = async (request, deps) => {
  const state = (request.query as { state?: string }).state ?? '';
  return state ? ((await repo.findConnectionByState(deps.db, state))?.subaccountId ?? null) : null;
};

/** Connected apps (Composio or the sandbox catalogue) of the caller's sub-account, and an agent's app tools. */
export const integrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  registerComposioRunner();
  if (!deps.env.COMPOSIO_API_KEY) {
    deps.log.info('Connected apps: the Sandbox catalogue (calendar, CRM, email), as COMPOSIO_API_KEY is not set');
  }

  app.get(
    '/api/integrations/apps',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, response: { 200: ZIntegrationAppsResponse } },
    },
    async () => service.listApps(deps),
  );

  app.get(
    '/api/integrations/connections',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, response: { 200: ZIntegrationConnectionsResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { connections: await service.listConnections(deps.db, tenantOf(request).subaccountId) };
    },
  );

  app.post(
    '/api/integrations/connections',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, body: ZConnectIntegrationRequest, response: { 200: ZConnectIntegrationResponse } },
    },
    async (request) => service.connectApp(deps, tenantOf(request), request.body),
  );

  app.get(
    '/api/integrations/oauth/callback',
    {
      config: subaccountAccess('member', fromState),
      schema: { tags, querystring: z.object({ state: z.string().max(200).optional() }).passthrough() },
    },
    async (request, reply) => {
      const row = await service.completeOauth(deps, tenantOf(request).subaccountId, request.query.state);
      const outcome =
        row.status === 'connected'
          ? `connected=${encodeURIComponent(row.appSlug)}`
          : `error=${row.status === 'pending_connection' ? 'pending' : 'COMPOSIO_AUTH_REQUIRED'}`;
      return reply.redirect(`/integrations?${outcome}`);
    },
  );

  app.delete(
    '/api/integrations/connections/:integrationId',
    { config: subaccountAccess('member', fromIntegration), schema: { tags, params: ZIntegrationParams } },
    async (request, reply) => {
      await service.disconnectApp(deps, tenantOf(request).subaccountId, request.params.integrationId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/integrations/connections/:integrationId/rediscover',
    {
      config: subaccountAccess('member', fromIntegration),
      schema: { tags, params: ZIntegrationParams, response: { 200: ZIntegrationConnection } },
    },
    async (request) => service.rediscoverTools(deps, tenantOf(request).subaccountId, request.params.integrationId),
  );

  app.get(
    '/api/integrations/status',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, response: { 200: ZIntegrationStatusResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.statusStore(deps.db, tenantOf(request).subaccountId);
    },
  );

  app.get(
    '/api/integrations/sandbox/records',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, response: { 200: ZSandboxRecordsResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.sandboxRecords(deps.db, tenantOf(request).subaccountId);
    },
  );

  app.get(
    '/api/agents/:agentId/app-tools',
    {
      config: subaccountAccess('viewer', fromAgentParam(), { client: 'read' }),
      schema: { tags, params: z.object({ agentId: z.string().max(64) }), response: { 200: ZAppToolGroupsResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { groups: await discoverAppTools(deps, tenantOf(request).subaccountId) };
    },
  );
};
