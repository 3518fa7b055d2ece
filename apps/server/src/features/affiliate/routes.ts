import { ZAffiliateSummary, ZAttributeReferralRequest, ZAttributeReferralResponse } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, userAccess } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { affiliateOperatorRoutes } from './operator-routes';
import * as service from './service';

const tags = ['affiliate'];

export const affiliateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  await app.register(affiliateOperatorRoutes);

  app.get(
    '/api/affiliate',
    { config: userAccess({ sessionOnly: true }), schema: { tags, response: { 200: ZAffiliateSummary } } },
    async (request) => service.summary(deps, callerOf(request).userId, originOf(request, deps.env)),
  );

  app.post(
    '/api/affiliate/attribute',
    {
      config: userAccess({ sessionOnly: true }),
      schema: { tags, body: ZAttributeReferralRequest, response: { 200: ZAttributeReferralResponse } },
    },
    async (request) => ({ attributed: await service.attribute(deps, callerOf(request).userId, request.body.code) }),
  );

  app.get(
    '/api/affiliate/commissions.csv',
    { config: userAccess({ sessionOnly: true }), schema: { tags, response: { 200: z.string() } } },
    async (request, reply) => {
      const csv = await service.ledgerCsv(deps.db, callerOf(request).userId);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="commissions.csv"')
        .send(csv);
    },
  );
};
