/** Routes of the Billing section of /settings (the portal, cancel and resume are the /stripe/ calls). */
import { ZAutoRechargeRequest, ZLowBalanceAlertsRequest } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { tenantOf } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { accountManager } from './access';
import { billingOverview, setAutoRecharge, setLowBalanceAlerts } from './billing-settings';

const tags = ['billing'];
// The plan, card, invoices, packs, alerts and auto-recharge are the agency's: its manager's only.
const manager = accountManager;
const parse = <T>(schema: z.ZodType<T>, body: unknown): T => schema.parse(body ?? {});

export const billingSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get('/api/billing/overview', { config: manager(), schema: { tags } }, async (request) =>
    billingOverview(deps, tenantOf(request).accountId, originOf(request, deps.env)),
  );

  app.put('/api/billing/low-balance-alerts', { config: manager(), schema: { tags } }, async (request) =>
    setLowBalanceAlerts(deps, tenantOf(request).accountId, parse(ZLowBalanceAlertsRequest, request.body).thresholds),
  );

  app.put('/api/billing/auto-recharge', { config: manager(), schema: { tags } }, async (request) =>
    setAutoRecharge(deps, tenantOf(request).accountId, parse(ZAutoRechargeRequest, request.body)),
  );
};
