import { ZKeyedProviderId, ZProviderKeysResponse, ZProviderKeyView, ZSaveProviderKeyRequest } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import { subaccountAccess, tenantOf } from '../../platform/guard';
import * as service from './service';

const tags = ['providers'];
const ZParams = z.object({ connectId: z.string().max(64) });
const ZProviderParams = ZParams.extend({ provider: ZKeyedProviderId });

/**
 * Provider keys belong to the account, which pays for their calls; the Settings page reaches them
 * through its {connectId} (a sub-account or connection of the account). Only the account's manager
 * (its owner, or an admin of every sub-account) sees or changes them: an admin of one client's
 * sub-account does not.
 */
export const providerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/connect/:connectId/providers',
    {
      config: subaccountAccess('admin', fromConnectId(), { account: 'manage' }),
      schema: { tags, params: ZParams, response: { 200: ZProviderKeysResponse } },
    },
    async (request) => ({ providers: await service.listProviders(deps, tenantOf(request).accountId) }),
  );

  app.put(
    '/api/connect/:connectId/providers/:provider',
    {
      config: subaccountAccess('admin', fromConnectId(), { account: 'manage' }),
      schema: { tags, params: ZProviderParams, body: ZSaveProviderKeyRequest, response: { 200: ZProviderKeyView } },
    },
    async (request) =>
      service.saveProviderKey(deps, tenantOf(request).accountId, request.params.provider, request.body),
  );

  app.delete(
    '/api/connect/:connectId/providers/:provider',
    {
      config: subaccountAccess('admin', fromConnectId(), { account: 'manage' }),
      schema: { tags, params: ZProviderParams },
    },
    async (request, reply) => {
      await service.deleteProviderKey(deps, tenantOf(request).accountId, request.params.provider);
      return reply.status(204).send();
    },
  );
};
