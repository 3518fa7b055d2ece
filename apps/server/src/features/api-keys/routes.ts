import { ZApiKeyListResponse, ZApiKeyView, ZCreateApiKeyRequest, ZCreatedApiKey } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { callerOf, fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { apiKeyCallerResolver, createApiKey, listApiKeys, revokeApiKey } from './service';

const tags = ['api-keys'];

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  if (!app.callerResolvers.includes(apiKeyCallerResolver)) app.callerResolvers.push(apiKeyCallerResolver);

  app.get(
    '/api/api-keys',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, response: { 200: ZApiKeyListResponse } },
    },
    async (request) => ({ keys: await listApiKeys(deps.db, tenantOf(request).subaccountId) }),
  );

  app.post(
    '/api/api-keys',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, body: ZCreateApiKeyRequest, response: { 201: ZCreatedApiKey } },
    },
    async (request, reply) => {
      if (callerOf(request).apiKeyId) {
        // Keys make keys only from a signed-in session.
        throw new AppError('FORBIDDEN', 'Create API keys from the workspace');
      }
      const created = await createApiKey(deps.db, {
        subaccountId: tenantOf(request).subaccountId,
        userId: callerOf(request).userId,
        name: request.body.name,
      });
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/api-keys/:keyId',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, params: z.object({ keyId: z.string().max(64) }), response: { 200: ZApiKeyView } },
    },
    async (request) => revokeApiKey(deps.db, tenantOf(request).subaccountId, request.params.keyId),
  );
};
