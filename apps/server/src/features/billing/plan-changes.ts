/** Plan changes of an existing subscription: preview, upgrade or switch, downgrade, cancel, resubscribe. */
import { formatMinor, PLAN_ALREADY_ACTIVE, planChangeType, type TCatalogTier } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { type BillingRow, billingRow, currentPlan, liveSubscription, planSummary, providerFor } from './account';
import { providerId, purchasableTier } from './catalog';
import { invalidPlan } from './checkout';
import { applyLocalChange } from './sync';

const DAY = 86_400_000;

const targetTier = (deps: Deps, priceId: string): TCatalogTier => {
  const tier = purchasableTier(deps.env, priceId);
  if (tier?.mode !== 'subscription') throw invalidPlan();
  return tier;
};

const changeTypeFor = (deps: Deps, row: BillingRow, tier: TCatalogTier) => {
  const current = currentPlan(deps, row);
  return planChangeType(
    current.tier
      ? { planCode: current.tier.plan_code, tierCode: current.tier.tier_code, creditLimit: current.creditLimit }
      : null,
    { planCode: tier.plan_code, tierCode: tier.tier_code, creditLimit: tier.credit_limit },
  );
};

const context = async (deps: Deps, accountId: string, origin: string, priceId: string) => {
  const tier = targetTier(deps, priceId);
  const row = await billingRow(deps, accountId);
  const provider = providerFor(deps, origin);
  const sub = await liveSubscription(provider, row);
  return { tier, row, provider, sub, providerPrice: providerId(deps.env, tier.price_id) ?? tier.price_id };
};

/** Proration preview; the real change passes the same prorationDate. */
export const previewUpgrade = async (
  deps: Deps,
  input: { accountId: string; origin: string; newPriceId: string; renewCycle: boolean },
) => {
  const { tier, row, provider, sub, providerPrice } = await context(
    deps,
    input.accountId,
    input.origin,
    input.newPriceId,
  );
  if (changeTypeFor(deps, row, tier) === 'none')
    throw new AppError('CONFLICT', PLAN_ALREADY_ACTIVE, { field: 'newPriceId' });
  const prorationDate = Math.floor(Date.now() / 1000);
  const quote = await provider.previewChange({
    subscription: sub,
    priceId: providerPrice,
    prorationDate,
    renewCycle: input.renewCycle,
  });
  const periodEnd = sub.currentPeriodEnd?.getTime() ?? Date.now();
  const current = currentPlan(deps, row);
  const proration = {
    creditAmount: quote.creditAmount,
    chargeAmount: quote.chargeAmount,
    totalDueNow: quote.totalDueNow,
    daysRemaining: Math.max(0, Math.ceil((periodEnd - prorationDate * 1000) / DAY)),
    nextBillingDate: quote.nextBillingDate?.toISOString() ?? null,
    currency: (quote.currency || 'usd').toUpperCase(),
    billingCycleReset: input.renewCycle,
    prorationDate,
    currentPlan: { displayName: current.displayName, creditLimit: current.creditLimit },
    targetPlan: { displayName: tier.display_name, creditLimit: tier.credit_limit },
  };
  return {
    proration,
    nextBillingDate: proration.nextBillingDate,
    billingCycleReset: input.renewCycle,
    currentPlan: proration.currentPlan,
    targetPlan: proration.targetPlan,
  };
};

/** Upgrade or switch: billed at once with prorated credit for the unused time. */
export const upgradeSubscription = async (
  deps: Deps,
  input: { accountId: string; origin: string; newPriceId: string; renewCycle: boolean; prorationDate?: number | null },
) => {
  const { tier, row, provider, sub, providerPrice } = await context(
    deps,
    input.accountId,
    input.origin,
    input.newPriceId,
  );
  const type = changeTypeFor(deps, row, tier);
  if (type === 'none') throw new AppError('CONFLICT', PLAN_ALREADY_ACTIVE, { field: 'newPriceId' });
  if (type === 'downgrade') {
    throw new AppError(
      'BILLING_INVALID_PLAN',
      'A lower plan starts at the end of the billing period. Schedule the downgrade instead.',
      {
        field: 'newPriceId',
      },
    );
  }
  const now = Math.floor(Date.now() / 1000);
  const start = Math.floor((sub.currentPeriodStart?.getTime() ?? now * 1000) / 1000);
  const prorationDate =
    input.prorationDate && input.prorationDate >= start && input.prorationDate <= now ? input.prorationDate : now;
  const change = { subscription: sub, priceId: providerPrice, prorationDate, renewCycle: input.renewCycle };
  const quote = await provider.previewChange(change);
  const previous = currentPlan(deps, row);
  const result = await provider.changePlan(change);
  await applyLocalChange(deps, input.accountId, result.subscription, result.invoice);
  const charged = result.invoice?.amountPaid ?? quote.totalDueNow;
  const netCredit = Math.max(0, quote.creditAmount - quote.chargeAmount);
  const currency = (quote.currency || 'usd').toUpperCase();
  return {
    success: !result.requiresAction,
    proration: {
      creditAmount: quote.creditAmount,
      chargeAmount: quote.chargeAmount,
      totalDueNow: quote.totalDueNow,
      amountCharged: charged,
      currency,
      prorationDate,
    },
    previousPlan: { displayName: previous.displayName, creditLimit: previous.creditLimit },
    updatedPlan: planSummary(tier),
    message: result.requiresAction
      ? 'Action required to finish upgrade'
      : netCredit > 0 && charged === 0
        ? `A credit of ${formatMinor(netCredit, currency)} will apply to the next invoice.`
        : `We charged ${formatMinor(charged, currency)} immediately.`,
    billingCycleReset: input.renewCycle,
    requiresAction: result.requiresAction,
    paymentIntent: result.paymentIntent,
  };
};

export const scheduleDowngrade = async (
  deps: Deps,
  input: { accountId: string; origin: string; newPriceId: string },
) => {
  const { tier, row, provider, sub, providerPrice } = await context(
    deps,
    input.accountId,
    input.origin,
    input.newPriceId,
  );
  const type = changeTypeFor(deps, row, tier);
  if (type === 'none') throw new AppError('CONFLICT', PLAN_ALREADY_ACTIVE, { field: 'newPriceId' });
  if (type !== 'downgrade') {
    throw new AppError('BILLING_INVALID_PLAN', 'Only a lower plan can be scheduled. Upgrade instead.', {
      field: 'newPriceId',
    });
  }
  const updated = await provider.scheduleChange({ subscription: sub, priceId: providerPrice });
  await applyLocalChange(deps, input.accountId, updated, null);
  const effectiveDate = (updated.scheduledChangeDate ?? sub.currentPeriodEnd)?.toISOString() ?? null;
  return {
    scheduledPlan: planSummary(tier),
    effectiveDate,
    message: `Your plan changes to ${tier.display_name} at the end of the billing period. You keep your current allowance until then.`,
  };
};

export const cancelScheduledDowngrade = async (deps: Deps, input: { accountId: string; origin: string }) => {
  const row = await billingRow(deps, input.accountId);
  const provider = providerFor(deps, input.origin);
  const sub = await liveSubscription(provider, row);
  const updated = await provider.cancelScheduledChange(sub);
  await applyLocalChange(deps, input.accountId, updated, null);
  const current = currentPlan(deps, row);
  return {
    currentPlan: { displayName: current.displayName, creditLimit: current.creditLimit },
    message: 'The scheduled downgrade was cancelled. Your plan stays as it is.',
  };
};

export const cancelSubscription = async (deps: Deps, input: { accountId: string; origin: string; cancel: boolean }) => {
  const row = await billingRow(deps, input.accountId);
  const provider = providerFor(deps, input.origin);
  const sub = await liveSubscription(provider, row);
  const updated = await provider.setCancelAtPeriodEnd(sub, input.cancel);
  await applyLocalChange(deps, input.accountId, updated, null);
  const current = currentPlan(deps, row);
  return {
    currentPlan: { displayName: current.displayName, creditLimit: current.creditLimit },
    cancelDate: updated.currentPeriodEnd?.toISOString() ?? null,
    message: input.cancel
      ? 'Your subscription will end at the close of the billing period.'
      : 'Your subscription continues.',
  };
};

export const resubscribe = async (deps: Deps, input: { accountId: string; origin: string }) => {
  const result = await cancelSubscription(deps, { ...input, cancel: false });
  return { currentPlan: result.currentPlan, message: 'Welcome back! Your subscription continues.' };
};
