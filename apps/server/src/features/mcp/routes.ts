import { ZCreateMcpServerRequest, ZMcpServer, ZMcpServerList, ZUpdateMcpServerRequest } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { registerMcpToolRunner } from './runner';
import { createMcpServer, deleteMcpServer, listMcpServers, rediscoverMcpServer, updateMcpServer } from './service';

const tags = ['mcp-servers'];
const ZServerParams = z.object({ serverId: z.string().max(64) });

/**
 * MCP servers of the current sub-account (X-Subaccount-Id): list, add (connects and discovers at
 * once), edit, delete, discover again. Header values never leave the server in full.
 */
export const mcpServerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  registerMcpToolRunner();
  const viewer = subaccountAccess('viewer', fromCurrentSubaccount());
  const member = subaccountAccess('member', fromCurrentSubaccount());
  const base = '/api/mcp-servers';

  app.get(base, { config: viewer, schema: { tags, response: { 200: ZMcpServerList } } }, async (request) =>
    listMcpServers(deps, tenantOf(request).subaccountId),
  );

  app.post(
    base,
    {
      config: { ...member, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, body: ZCreateMcpServerRequest, response: { 201: ZMcpServer } },
    },
    async (request, reply) => reply.status(201).send(await createMcpServer(deps, tenantOf(request), request.body)),
  );

  app.patch(
    `${base}/:serverId`,
    {
      config: member,
      schema: { tags, params: ZServerParams, body: ZUpdateMcpServerRequest, response: { 200: ZMcpServer } },
    },
    async (request) => updateMcpServer(deps, tenantOf(request).subaccountId, request.params.serverId, request.body),
  );

  app.delete(
    `${base}/:serverId`,
    { config: member, schema: { tags, params: ZServerParams } },
    async (request, reply) => {
      await deleteMcpServer(deps, tenantOf(request).subaccountId, request.params.serverId);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:serverId/rediscover`,
    {
      config: { ...member, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, params: ZServerParams, response: { 200: ZMcpServer } },
    },
    async (request) => rediscoverMcpServer(deps, tenantOf(request).subaccountId, request.params.serverId),
  );
};
