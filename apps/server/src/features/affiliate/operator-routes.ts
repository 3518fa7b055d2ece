/** The operator's affiliate payouts (OPERATOR_EMAILS only): what is payable, as CSV, and marking it paid. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, operatorOnly } from '../../platform/guard';
import * as payouts from './payouts';

const tags = ['operator'];

export const affiliateOperatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/operator/affiliate/payable',
    {
      config: operatorOnly(),
      schema: {
        tags,
        response: {
          200: z.object({
            affiliates: z.array(payouts.ZPayableAffiliate),
            stripeConnect: z.literal(payouts.CONNECT_STATE),
          }),
        },
      },
    },
    async () => ({ affiliates: await payouts.payableAffiliates(deps.db), stripeConnect: payouts.CONNECT_STATE }),
  );

  app.get(
    '/api/operator/affiliate/payable.csv',
    { config: operatorOnly(), schema: { tags, response: { 200: z.string() } } },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="payable-commissions.csv"')
        .send(await payouts.payableCsv(deps.db)),
  );

  app.get(
    '/api/operator/affiliate/payouts',
    { config: operatorOnly(), schema: { tags, response: { 200: z.object({ payouts: z.array(payouts.ZPayout) }) } } },
    async () => ({ payouts: await payouts.listPayouts(deps.db) }),
  );

  app.post(
    '/api/operator/affiliate/payouts',
    {
      config: operatorOnly(),
      schema: {
        tags,
        body: payouts.ZMarkPaidRequest,
        response: {
          200: z.object({ payouts: z.array(payouts.ZPayout), stripeConnect: z.literal(payouts.CONNECT_STATE) }),
        },
      },
    },
    async (request) => ({
      payouts: await payouts.markPaid(deps, { ...request.body, paidBy: callerOf(request).email }),
      stripeConnect: payouts.CONNECT_STATE,
    }),
  );
};
