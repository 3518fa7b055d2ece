import {
  buildPricingPlans,
  ZCancelSubscriptionRequest,
  ZCheckoutRequest,
  ZPortalRequest,
  ZRedeemRequest,
  ZScheduleDowngradeRequest,
  ZSelectSubaccountRequest,
  ZSetAllowanceRequest,
  ZUpgradeRequest,
  ZUsageBreakdownQuery,
  ZUsageResponse,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountScopeOf, callerOf, publicAccess, tenantOf } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { accountManager, clientScoped } from './access';
import type { AgentDirectory } from './agent-directory';
import { listAllowances, setAllowance } from './allowances';
import { usageBreakdown } from './breakdown';
import { paymentsMode, servedCatalog } from './catalog';
import * as checkout from './checkout';
import * as changes from './plan-changes';
import { billingSettingsRoutes } from './settings-routes';
import { selectActiveSubaccount, subaccountSelection } from './subaccount-selection';
import { getUsage, redeemPromo } from './usage';
import { paymentEventRoutes } from './webhook-routes';

const tags = ['billing'];
const manager = accountManager;
const ZUpgradeBody = ZUpgradeRequest.extend({ prorationDate: z.number().int().positive().optional() });

/**
 * Billing payloads are parsed in the handler (not the route schema) so a refusal carries the
 * spec's exact message, e.g. 'Promo code is required', with the field named.
 */
const parse = <T>(schema: z.ZodType<T>, body: unknown): T => schema.parse(body ?? {});

/** Billing's routes; `agents` reads what its screens show of the agents (a feature above billing). */
export const billingRoutes =
  (agents: AgentDirectory): FastifyPluginAsyncZod =>
  async (app) => {
    const { deps } = app;

    app.get('/api/openrouter/plans', { config: publicAccess(), schema: { tags } }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { plans: servedCatalog(deps.env), salesUrl: deps.env.SALES_CONTACT_URL, payments: paymentsMode(deps.env) };
    });

    /** Live pricing: plans keyed by lower-case plan name, one entry per interval and pack. */
    app.get('/api/pricing/plans', { config: publicAccess(), schema: { tags } }, async () => {
      const cards = buildPricingPlans(servedCatalog(deps.env), 'default', { salesUrl: deps.env.SALES_CONTACT_URL });
      const plans: Record<
        string,
        { billingInterval: 'month' | 'year'; price: number; stripePriceId: string | null; tierCode: string }[]
      > = {};
      for (const card of cards) {
        const entries = [
          ...(card.monthly?.creditPacks ?? []).map((pack) => ({ billingInterval: 'month' as const, pack })),
          ...(card.yearly?.creditPacks ?? []).map((pack) => ({ billingInterval: 'year' as const, pack })),
        ];
        plans[card.name.toLowerCase()] = entries.map(({ billingInterval, pack }) => ({
          billingInterval,
          price: pack.price,
          stripePriceId: pack.stripePriceId,
          tierCode: pack.tierCode,
        }));
      }
      return { plans, salesUrl: deps.env.SALES_CONTACT_URL };
    });

    app.get(
      '/api/openrouter/usage',
      { config: clientScoped(), schema: { tags, response: { 200: ZUsageResponse } } },
      async (request) => getUsage(deps, accountScopeOf(request)),
    );

    app.post('/api/openrouter/credits/redeem', { config: manager(), schema: { tags } }, async (request) =>
      redeemPromo(deps, tenantOf(request).accountId, parse(ZRedeemRequest, request.body).code),
    );

    app.get(
      '/auth/check-access',
      { config: publicAccess(), schema: { tags, querystring: z.object({ userId: z.string().max(64).optional() }) } },
      async (request) => {
        const caller = request.caller;
        if (!caller || (request.query.userId && request.query.userId !== caller.userId)) return { hasAccess: false };
        return { hasAccess: await checkout.userHasAccess(deps, caller.userId) };
      },
    );

    app.get('/api/usage/breakdown', { config: clientScoped(), schema: { tags } }, async (request) =>
      usageBreakdown(deps, accountScopeOf(request), parse(ZUsageBreakdownQuery, request.query), agents),
    );

    app.get('/api/billing/allowances', { config: clientScoped(), schema: { tags } }, async (request) =>
      listAllowances(deps, accountScopeOf(request)),
    );

    app.put(
      '/api/billing/allowances/:subaccountId',
      {
        config: manager(),
        schema: { tags, params: z.object({ subaccountId: z.string().max(64) }), body: ZSetAllowanceRequest },
      },
      async (request) =>
        setAllowance(deps, tenantOf(request).accountId, request.params.subaccountId, request.body.monthlyCredits),
    );

    app.get('/api/billing/subaccount-selection', { config: manager(), schema: { tags } }, async (request) =>
      subaccountSelection(deps, tenantOf(request).accountId, agents),
    );

    app.post(
      '/api/billing/subaccount-selection',
      { config: manager(), schema: { tags, body: ZSelectSubaccountRequest } },
      async (request) => selectActiveSubaccount(deps, tenantOf(request).accountId, request.body.subaccountId, agents),
    );

    const ctx = (request: Parameters<typeof tenantOf>[0]) => ({
      accountId: tenantOf(request).accountId,
      origin: originOf(request, deps.env),
    });

    for (const prefix of ['/api/stripe', '/stripe']) {
      app.post(`${prefix}/create-checkout`, { config: manager(), schema: { tags } }, async (request) =>
        checkout.createCheckout(deps, {
          ...ctx(request),
          callerEmail: callerOf(request).email,
          body: parse(ZCheckoutRequest, request.body),
        }),
      );
      app.post(`${prefix}/upgrade-subscription`, { config: manager(), schema: { tags } }, async (request) => {
        const body = parse(ZUpgradeBody, request.body);
        return changes.upgradeSubscription(deps, {
          ...ctx(request),
          newPriceId: body.newPriceId,
          renewCycle: body.renewCycle ?? true,
          prorationDate: body.prorationDate,
        });
      });
      app.post(
        `${prefix}/create-portal`,
        { config: manager(), schema: { tags, body: ZPortalRequest } },
        async (request) => checkout.createPortal(deps, { ...ctx(request), returnUrl: request.body.returnUrl }),
      );
      app.get(`${prefix}/subscription-details`, { config: manager(), schema: { tags } }, async (request) =>
        checkout.subscriptionDetails(deps, tenantOf(request).accountId),
      );
      app.post(`${prefix}/preview-upgrade`, { config: manager(), schema: { tags } }, async (request) => {
        const body = parse(ZUpgradeRequest, request.body);
        return changes.previewUpgrade(deps, {
          ...ctx(request),
          newPriceId: body.newPriceId,
          renewCycle: body.renewCycle ?? true,
        });
      });
      app.post(`${prefix}/schedule-downgrade`, { config: manager(), schema: { tags } }, async (request) =>
        changes.scheduleDowngrade(deps, {
          ...ctx(request),
          newPriceId: parse(ZScheduleDowngradeRequest, request.body).newPriceId,
        }),
      );
      app.post(`${prefix}/cancel-scheduled-downgrade`, { config: manager(), schema: { tags } }, async (request) =>
        changes.cancelScheduledDowngrade(deps, ctx(request)),
      );
      app.post(
        `${prefix}/cancel-subscription`,
        { config: manager(), schema: { tags, body: ZCancelSubscriptionRequest.optional() } },
        async (request) =>
          changes.cancelSubscription(deps, { ...ctx(request), cancel: request.body?.cancelAtPeriodEnd ?? true }),
      );
      app.post(`${prefix}/resubscribe`, { config: manager(), schema: { tags } }, async (request) =>
        changes.resubscribe(deps, ctx(request)),
      );
    }

    await app.register(paymentEventRoutes);
    await app.register(billingSettingsRoutes);
  };
