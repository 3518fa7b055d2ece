import { ZUserRank } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { userRank } from './service';

export const rankRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/user/rank',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags: ['rank'], response: { 200: ZUserRank } },
    },
    async (request) => userRank(app.deps.db, tenantOf(request).accountId),
  );
};
