import {
  ZClientBalanceSettingsRequest,
  ZClientBillingStatus,
  ZClientCheckoutRequest,
  ZClientCheckoutResponse,
  ZClientMargin,
  ZClientMarginQuery,
  ZClientPlan,
  ZClientPlanList,
  ZClientPlanView,
  ZClientSandboxCheckout,
  ZCreateClientPlanRequest,
  ZDeleteClientPlanResponse,
  ZPutClientBillingStripeRequest,
  ZPutClientBillingWebhookSecretRequest,
  ZUpdateClientPlanRequest,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import {
  accountManagerOfParam,
  fromParam,
  publicAccess,
  subaccountAccess,
  tenantOf,
  userAccess,
} from '../../platform/guard';
import { originOf } from '../../platform/http';
import { vendorLimit } from '../../platform/request-limits';
import { subaccounts } from '../tenancy/schema';
import { verifyAgencyEvent } from './agency-stripe';
import { putBalanceSettings } from './balance';
import { clientPlanView } from './client-view';
import { applyClientEvent } from './events';
import { clientMargin, marginCsv } from './margin';
import * as plans from './plans';
import { finishSandboxCheckout, mayPaySandboxCheckout, sandboxCheckoutDetails } from './sandbox';
import * as settings from './settings';
import { parseAgencyEvent } from './stripe-events';
import { cancelClientPlan, startClientCheckout, stripeOverageBiller } from './subscribe';

const tags = ['client-plans'];

const ZAccountParams = z.object({ accountId: z.string().max(64) });
const ZPlanParams = z.object({ accountId: z.string().max(64), planId: z.string().max(64) });
const ZSubaccountParams = z.object({ subaccountId: z.string().max(64) });
const ZCheckoutParams = z.object({ checkoutId: z.string().max(80) });

export const clientPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  // The agency: its Stripe account.
  app.get(
    '/api/accounts/:accountId/client-billing',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, response: { 200: ZClientBillingStatus } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return settings.getStatus(deps, tenantOf(request).accountId);
    },
  );

  app.put(
    '/api/accounts/:accountId/client-billing/stripe',
    {
      config: accountManagerOfParam(),
      schema: {
        tags,
        params: ZAccountParams,
        body: ZPutClientBillingStripeRequest,
        response: { 200: ZClientBillingStatus },
      },
    },
    async (request) => settings.connectStripe(deps, tenantOf(request).accountId, request.body),
  );

  app.put(
    '/api/accounts/:accountId/client-billing/stripe/webhook-secret',
    {
      config: accountManagerOfParam(),
      schema: {
        tags,
        params: ZAccountParams,
        body: ZPutClientBillingWebhookSecretRequest,
        response: { 200: ZClientBillingStatus },
      },
    },
    async (request) => settings.setWebhookSecret(deps, tenantOf(request).accountId, request.body.webhookSecret),
  );

  app.delete(
    '/api/accounts/:accountId/client-billing/stripe',
    { config: accountManagerOfParam(), schema: { tags, params: ZAccountParams } },
    async (request, reply) => {
      await settings.disconnectStripe(deps, tenantOf(request).accountId);
      return reply.status(204).send();
    },
  );

  // The agency: its plans.
  app.get(
    '/api/accounts/:accountId/client-plans',
    {
      config: accountManagerOfParam(),
      schema: {
        tags,
        params: ZAccountParams,
        querystring: z.object({ archived: z.enum(['true', 'false']).optional() }),
        response: { 200: ZClientPlanList },
      },
    },
    async (request) => ({
      plans: await plans.listPlans(deps, tenantOf(request).accountId, {
        withArchived: request.query.archived === 'true',
      }),
    }),
  );

  app.post(
    '/api/accounts/:accountId/client-plans',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, body: ZCreateClientPlanRequest, response: { 201: ZClientPlan } },
    },
    async (request, reply) =>
      reply.status(201).send(await plans.createPlan(deps, tenantOf(request).accountId, request.body)),
  );

  app.patch(
    '/api/accounts/:accountId/client-plans/:planId',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZPlanParams, body: ZUpdateClientPlanRequest, response: { 200: ZClientPlan } },
    },
    async (request) => plans.updatePlan(deps, tenantOf(request).accountId, request.params.planId, request.body),
  );

  app.delete(
    '/api/accounts/:accountId/client-plans/:planId',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZPlanParams, response: { 200: ZDeleteClientPlanResponse } },
    },
    async (request) => plans.deletePlan(deps, tenantOf(request).accountId, request.params.planId),
  );

  // The agency: revenue, platform cost and margin per client and month.
  app.get(
    '/api/accounts/:accountId/client-billing/margin',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, querystring: ZClientMarginQuery, response: { 200: ZClientMargin } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return clientMargin(deps, tenantOf(request).accountId, request.query.month);
    },
  );

  app.get(
    '/api/accounts/:accountId/client-billing/margin.csv',
    { config: accountManagerOfParam(), schema: { tags, params: ZAccountParams, querystring: ZClientMarginQuery } },
    async (request, reply) => {
      const margin = await clientMargin(deps, tenantOf(request).accountId, request.query.month);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="client-margin-${margin.month}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(marginCsv(margin));
    },
  );

  // The client: its plan.
  app.get(
    '/api/subaccounts/:subaccountId/client-plan',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId'), { allowLocked: true, client: 'read' }),
      schema: { tags, params: ZSubaccountParams, response: { 200: ZClientPlanView } },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      reply.header('cache-control', 'no-store');
      return clientPlanView(deps, { ...tenant, canManage: tenant.role === 'admin' || tenant.role === 'client' });
    },
  );

  app.post(
    '/api/subaccounts/:subaccountId/client-plan/checkout',
    {
      config: subaccountAccess('admin', fromParam('subaccountId'), { allowLocked: true, client: 'plan' }),
      schema: {
        tags,
        params: ZSubaccountParams,
        body: ZClientCheckoutRequest,
        response: { 200: ZClientCheckoutResponse },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const [client] = await deps.db
        .select({ name: subaccounts.name })
        .from(subaccounts)
        .where(eq(subaccounts.id, tenant.subaccountId));
      return startClientCheckout(deps, tenant, {
        planId: request.body.planId,
        origin: originOf(request, deps.env),
        clientName: client?.name ?? tenant.subaccountId,
      });
    },
  );

  app.post(
    '/api/subaccounts/:subaccountId/client-plan/cancel',
    {
      config: subaccountAccess('admin', fromParam('subaccountId'), { allowLocked: true, client: 'plan' }),
      schema: { tags, params: ZSubaccountParams, response: { 200: ZClientPlanView } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      await cancelClientPlan(deps, tenant);
      return clientPlanView(deps, { ...tenant, canManage: true });
    },
  );

  app.put(
    '/api/subaccounts/:subaccountId/client-plan/balance',
    {
      config: subaccountAccess('admin', fromParam('subaccountId'), { allowLocked: true, client: 'plan' }),
      schema: {
        tags,
        params: ZSubaccountParams,
        body: ZClientBalanceSettingsRequest,
        response: { 200: ZClientPlanView },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      await putBalanceSettings(deps, tenant, request.body);
      return clientPlanView(deps, { ...tenant, canManage: true });
    },
  );

  // The sandbox checkout (an agency without Stripe, outside production).
  const sandboxCheckoutAccess = userAccess({
    sessionOnly: true,
    clients: true,
    owns: async (request, _deps, caller) => {
      const { checkoutId } = request.params as { checkoutId?: unknown };
      return typeof checkoutId === 'string' && checkoutId.length <= 80
        ? mayPaySandboxCheckout(deps, caller.userId, checkoutId)
        : false;
    },
  });

  app.get(
    '/api/client-billing/sandbox/checkouts/:checkoutId',
    {
      config: sandboxCheckoutAccess,
      schema: { tags, params: ZCheckoutParams, response: { 200: ZClientSandboxCheckout } },
    },
    async (request) => sandboxCheckoutDetails(deps, request.params.checkoutId),
  );

  app.post(
    '/api/client-billing/sandbox/checkouts/:checkoutId/:outcome',
    {
      config: sandboxCheckoutAccess,
      schema: {
        tags,
        params: ZCheckoutParams.extend({ outcome: z.enum(['pay', 'cancel']) }),
        response: { 200: ZClientSandboxCheckout },
      },
    },
    async (request) => finishSandboxCheckout(deps, request.params.checkoutId, request.params.outcome),
  );

  // The agency's Stripe webhook: verified with the signing secret it pasted.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/api/client-billing/stripe-webhook/:accountId',
      {
        config: { ...publicAccess(), ...vendorLimit(deps.env) },
        schema: { tags, hide: true, params: ZAccountParams },
      },
      async (request) => {
        const { accountId } = request.params as { accountId: string };
        const row = await settings.settingsRow(deps, accountId);
        const connection = settings.connectionOf(deps, row);
        if (!connection) throw new AppError('WEBHOOK_NOT_FOUND', 'This agency has no Stripe account connected.');
        const raw = request.body as Buffer;
        if (!Buffer.isBuffer(raw) || raw.length === 0) {
          throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook carried no body.');
        }
        const signature = request.headers['stripe-signature'];
        const event = verifyAgencyEvent(
          raw,
          typeof signature === 'string' ? signature : undefined,
          connection.webhookSecret,
        );
        const parsed = parseAgencyEvent(event);
        if (!parsed) return { received: true, outcome: 'ignored' };
        const outcome = await applyClientEvent(
          deps,
          accountId,
          event.id,
          event.type,
          parsed,
          stripeOverageBiller(connection.stripe),
        );
        return { received: true, outcome };
      },
    );
  });
};
