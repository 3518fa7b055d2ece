/** The Billing section of /settings: plan, renewal, payment method, invoices, packs, alerts, auto-recharge. */
import {
  CREDIT_PACK_TIERS,
  findCreditPack,
  findTier,
  pricePerCredit,
  type TAutoRechargeRequest,
  type TBillingOverview,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { ACTIVE_STATUSES, billingRow, currentPlan, providerFor } from './account';
import { paymentsMode, providerId } from './catalog';
import { sumEntries } from './ledger-repo';
import { periodCreditsOf, scheduleBalanceCheck } from './low-balance';
import { billingAccounts } from './schema';

const INVOICE_LIMIT = 24;
export const INVOICES_UNAVAILABLE = 'Invoices could not be loaded from the payment provider. Try again shortly.';

export const billingOverview = async (deps: Deps, accountId: string, origin: string): Promise<TBillingOverview> => {
  const row = await billingRow(deps, accountId);
  const mode = paymentsMode(deps.env);
  const plan = currentPlan(deps, row);
  const live = Boolean(row.subscriptionId) && (ACTIVE_STATUSES.has(row.status) || row.status === 'past_due');
  // A plan given without a payment provider (seeded, or granted by an operator): no charge, no renewal.
  const complimentary = !row.subscriptionId && plan.tier !== null;
  let paymentMethod: TBillingOverview['paymentMethod'] = null;
  let invoices: TBillingOverview['invoices'] = [];
  let invoicesError: string | null = null;
  if (mode !== 'none' && row.customerId) {
    const provider = providerFor(deps, origin);
    const [method, list] = await Promise.allSettled([
      provider.getPaymentMethod(row.customerId),
      provider.listInvoices({ customerId: row.customerId, accountId, limit: INVOICE_LIMIT }),
    ]);
    if (method.status === 'fulfilled') paymentMethod = method.value;
    if (list.status === 'fulfilled') {
      invoices = list.value.map((invoice) => ({ ...invoice, createdAt: invoice.createdAt.toISOString() }));
    } else {
      invoicesError = INVOICES_UNAVAILABLE;
      deps.log.warn({ err: list.reason, accountId }, 'invoices could not be listed');
    }
  }
  const periodEnd = live ? (row.currentPeriodEnd?.toISOString() ?? null) : null;
  return {
    provider: mode,
    plan: {
      displayName: plan.displayName,
      planCode: row.planCode,
      status: live ? row.status : complimentary ? 'complimentary' : 'free',
      priceId: live ? row.priceId : null,
      amount: live ? row.amountCents : 0,
      interval: live ? (findTier(row.priceId)?.interval ?? null) : null,
    },
    renewalDate: live && !row.cancelAtPeriodEnd ? periodEnd : null,
    periodEnd,
    cancelAtPeriodEnd: live && row.cancelAtPeriodEnd,
    paymentMethod,
    invoices,
    invoicesError,
    balance: await sumEntries(deps.db, accountId),
    periodCredits: periodCreditsOf(deps, row),
    lowBalanceAlerts: { thresholds: row.lowBalanceThresholds },
    autoRecharge: {
      enabled: row.autoRechargeEnabled,
      thresholdCredits: row.autoRechargeThreshold,
      packPriceId: row.autoRechargePriceId,
      lastAt: row.autoRechargeLastAt?.toISOString() ?? null,
      lastResult: row.autoRechargeLastResult,
    },
    creditPacks: CREDIT_PACK_TIERS.map((tier) => ({
      priceId: mode !== 'none' && providerId(deps.env, tier.price_id) ? tier.price_id : null,
      credits: tier.credit_limit,
      price: tier.price,
      pricePerCredit: pricePerCredit(tier.price, tier.credit_limit),
      label: tier.display_name,
    })),
  };
};

export const setLowBalanceAlerts = async (deps: Deps, accountId: string, thresholds: number[]) => {
  await billingRow(deps, accountId);
  const sorted = [...thresholds].sort((a, b) => b - a);
  await deps.db
    .update(billingAccounts)
    .set({ lowBalanceThresholds: sorted, updatedAt: new Date() })
    .where(eq(billingAccounts.accountId, accountId));
  // A threshold the balance is already under is mailed now.
  if (sorted.length > 0) scheduleBalanceCheck(deps, accountId);
  return { thresholds: sorted };
};

export const setAutoRecharge = async (deps: Deps, accountId: string, body: TAutoRechargeRequest) => {
  const pack = body.packPriceId ? findCreditPack(body.packPriceId) : undefined;
  if (body.packPriceId && (!pack || !providerId(deps.env, pack.price_id))) {
    throw new AppError('VALIDATION_ERROR', 'That credit pack is not available.', { field: 'packPriceId' });
  }
  if (body.enabled && paymentsMode(deps.env) === 'none') {
    throw new AppError('SERVER_CONFIG_ERROR', 'Payments are not configured on this server.', {
      status: 503,
      reason: 'payments_not_configured',
    });
  }
  await billingRow(deps, accountId);
  const [row] = await deps.db
    .update(billingAccounts)
    .set({
      autoRechargeEnabled: body.enabled,
      autoRechargeThreshold: body.thresholdCredits,
      autoRechargePriceId: pack?.price_id ?? null,
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.accountId, accountId))
    .returning();
  if (body.enabled) scheduleBalanceCheck(deps, accountId);
  return {
    enabled: row?.autoRechargeEnabled ?? false,
    thresholdCredits: row?.autoRechargeThreshold ?? null,
    packPriceId: row?.autoRechargePriceId ?? null,
  };
};
