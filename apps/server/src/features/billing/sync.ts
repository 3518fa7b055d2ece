/**
 * Applies payment-provider events to our records. Every event is handled once (its id is stored in
 * billing_events in the same transaction as its effects), objects are re-fetched from the provider
 * instead of trusting the payload, and credit grants are keyed by invoice or checkout id, so
 * duplicates and out-of-order delivery end in the same state. Refunds and disputes are in reversals.ts.
 */
import { FREE_TIER, grantsForeverBonus, SECRET_BONUS_CREDITS } from '@switchboard/core';
import { and, eq, or } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { monthsIn, tierForProviderPrice } from './catalog';
import { publishLockChange } from './channel-gate';
import { addGrant, addPlanPeriodGrant, lockAccount } from './ledger-repo';
import { grantLifetimeMonth, isLifetimePlan } from './lifetime';
import type { PaymentProvider, ProviderEvent, ProviderInvoice, ProviderSubscription } from './provider';
import { handleReversalEvent, isReversalEvent, reapplyReversals } from './reversals';
import { billingAccounts, billingEvents } from './schema';
import { enforceSubaccountLimit } from './subaccount-selection';

const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due', 'incomplete', 'unpaid']);

/** The account a provider customer belongs to. */
export const accountForCustomer = async (tx: Tx | Deps['db'], customerId: string | null, hint: string | null) => {
  if (!customerId && !hint) return null;
  const conditions = [];
  if (customerId) conditions.push(eq(billingAccounts.customerId, customerId));
  if (hint) conditions.push(eq(billingAccounts.accountId, hint));
  const rows = await tx
    .select({ accountId: billingAccounts.accountId, customerId: billingAccounts.customerId })
    .from(billingAccounts)
    .where(or(...conditions));
  const byCustomer = rows.find((row) => customerId && row.customerId === customerId);
  return (byCustomer ?? rows[0])?.accountId ?? null;
};

/** Mirrors a freshly fetched subscription onto the account (skipped when an older fetch arrives late). */
export const applySubscription = async (
  deps: Deps,
  tx: Tx,
  accountId: string,
  sub: ProviderSubscription,
  fetchedAt: Date,
) => {
  const row = await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
  if (row.syncedAt && row.syncedAt.getTime() > fetchedAt.getTime()) return;
  if (row.subscriptionId && row.subscriptionId !== sub.id && !LIVE_STATUSES.has(sub.status)) return;
  const tier = tierForProviderPrice(deps.env, sub.priceId);
  const live = LIVE_STATUSES.has(sub.status);
  const scheduled = tierForProviderPrice(deps.env, sub.scheduledPriceId);
  const planCode = live && tier ? tier.plan_code : 'free';
  const tierCode = live && tier ? tier.tier_code : 'free';
  await tx
    .update(billingAccounts)
    .set({
      customerId: sub.customerId,
      subscriptionId: live ? sub.id : null,
      status: sub.status,
      priceId: live ? (tier?.price_id ?? null) : null,
      planCode,
      tierCode,
      creditLimit: live && tier ? tier.credit_limit : 0,
      amountCents: live ? sub.amountCents : 0,
      currentPeriodStart: live ? sub.currentPeriodStart : null,
      currentPeriodEnd: live ? sub.currentPeriodEnd : null,
      cancelAtPeriodEnd: live && sub.cancelAtPeriodEnd,
      scheduledPriceId: live ? (scheduled?.price_id ?? null) : null,
      scheduledChangeDate: live && scheduled ? sub.scheduledChangeDate : null,
      syncedAt: fetchedAt,
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.accountId, accountId));
  // The plan's sub-account limit holds at once: beyond it the newest sub-accounts are locked.
  const capabilities = live && tier ? tier.capabilities : FREE_TIER.capabilities;
  if (row.planCode !== planCode || row.tierCode !== tierCode) {
    await publish(deps, 'plan.changed', { accountId, planCode, tierCode, features: capabilities.features }, tx);
  }
  const changed = await enforceSubaccountLimit(tx, accountId, capabilities.limits.subaccounts);
  for (const id of changed) publishLockChange(deps, id);
};

/**
 * One live subscription per account: a live subscription other than the one on record (a second
 * checkout paid in another tab, a late payment of an expired checkout) is a duplicate. Decided under
 * the account lock, so two completions at once cannot both become the account's subscription.
 */
const isDuplicate = (row: { subscriptionId: string | null; status: string }, sub: ProviderSubscription) =>
  LIVE_STATUSES.has(sub.status) &&
  Boolean(row.subscriptionId) &&
  row.subscriptionId !== sub.id &&
  LIVE_STATUSES.has(row.status);

/** Mirrors the subscription unless it duplicates the live one; answers 'duplicate' then. */
const mirrorSubscription = async (
  deps: Deps,
  tx: Tx,
  accountId: string,
  sub: ProviderSubscription,
  fetchedAt: Date,
): Promise<'applied' | 'duplicate'> => {
  const row = await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
  if (isDuplicate(row, sub)) return 'duplicate';
  await applySubscription(deps, tx, accountId, sub, fetchedAt);
  return 'applied';
};

/** Cancels and refunds a duplicate subscription (after the event's transaction committed). */
const refuseDuplicate = async (deps: Deps, provider: PaymentProvider, accountId: string, sub: ProviderSubscription) => {
  deps.log.warn({ accountId, subscriptionId: sub.id }, 'duplicate subscription cancelled and refunded');
  await provider.cancelDuplicate(sub);
};

/** Records the event id; false when it was already handled. */
const claimEvent = async (tx: Tx, event: ProviderEvent, accountId: string | null) => {
  const inserted = await tx
    .insert(billingEvents)
    .values({ id: event.id, type: event.type, accountId })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
};

/** Grants the plan credits of a paid subscription invoice, once per invoice id. */
export const grantInvoice = async (deps: Deps, tx: Tx, accountId: string, invoice: ProviderInvoice) => {
  // In this transaction, so what reacts (an affiliate's commission) is kept exactly when the invoice is.
  if (invoice.status === 'paid') {
    await publish(deps, 'invoice.paid', { accountId, invoiceId: invoice.id, amountPaid: invoice.amountPaid }, tx);
  }
  const tier = tierForProviderPrice(deps.env, invoice.priceId);
  if (invoice.status !== 'paid' || !invoice.subscriptionId || !tier || !invoice.periodStart) {
    if (invoice.status === 'paid')
      await reapplyReversals(deps, tx, accountId, { invoiceId: invoice.id, checkoutId: null });
    return false;
  }
  if (grantsForeverBonus(tier)) {
    // A Starter bought in discount mode comes with 1,000 bonus credits that never expire, once per subscription.
    await addGrant(tx, {
      accountId,
      kind: 'bonus',
      amount: SECRET_BONUS_CREDITS,
      sourceKey: `bonus:${invoice.subscriptionId}`,
      description: 'Bonus credits',
    });
  }
  const granted = await addPlanPeriodGrant(tx, {
    accountId,
    amount: tier.credit_limit * monthsIn(invoice.periodStart, invoice.periodEnd),
    sourceKey: `invoice:${invoice.id}`,
    startsAt: invoice.periodStart,
    expiresAt: invoice.periodEnd,
    description: tier.display_name,
  });
  // A refund or dispute that arrived before the invoice takes back what was just granted.
  await reapplyReversals(deps, tx, accountId, { invoiceId: invoice.id, checkoutId: null });
  return granted;
};

/** Applies the result of a change we made ourselves at once; the provider's later webhook is then a no-op. */
export const applyLocalChange = async (
  deps: Deps,
  accountId: string,
  sub: ProviderSubscription,
  invoice: ProviderInvoice | null,
) =>
  deps.db.transaction(async (tx) => {
    await applySubscription(deps, tx, accountId, sub, new Date());
    if (invoice) await grantInvoice(deps, tx, accountId, invoice);
  });

export type EventOutcome = 'processed' | 'duplicate' | 'ignored';

export const handleProviderEvent = async (
  deps: Deps,
  provider: PaymentProvider,
  event: ProviderEvent,
): Promise<EventOutcome> => {
  const seen = await deps.db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, event.id));
  if (seen[0]) return 'duplicate';
  if (isReversalEvent(event.type)) {
    // Refunds and disputes: credits taken back (or restored), the invoice's commission with them.
    return handleReversalEvent(deps, provider, event, (customerId, hint) =>
      accountForCustomer(deps.db, customerId, hint),
    );
  }
  const fetchedAt = new Date();

  if (event.type.startsWith('checkout.session.')) {
    const checkout = await provider.getCheckout(event.objectId);
    if (!checkout) return 'ignored';
    const sub = checkout.subscriptionId ? await provider.getSubscription(checkout.subscriptionId) : null;
    const accountId = await accountForCustomer(deps.db, checkout.customerId, checkout.accountId);
    if (!accountId) return 'ignored';
    let duplicate = false;
    const outcome = await deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate' as const;
      await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
      if (checkout.customerId) {
        await tx
          .update(billingAccounts)
          .set({ customerId: checkout.customerId })
          .where(and(eq(billingAccounts.accountId, accountId)));
      }
      if (sub && (await mirrorSubscription(deps, tx, accountId, sub, fetchedAt)) === 'duplicate') {
        duplicate = true;
        return 'processed' as const;
      }
      const paid = checkout.status === 'complete' && checkout.paymentStatus === 'paid';
      if (checkout.mode === 'payment' && paid) {
        const tier = tierForProviderPrice(deps.env, checkout.priceId);
        if (tier && isLifetimePlan(tier)) {
          // Its credits every month for life: month 0 now, the next ones by scheduled jobs.
          await grantLifetimeMonth(deps, tx, {
            accountId,
            purchaseId: checkout.id,
            purchasedAt: fetchedAt.toISOString(),
            credits: tier.credit_limit,
            description: tier.display_name,
            month: 0,
          });
        } else if (tier) {
          await addGrant(tx, {
            accountId,
            kind: 'bonus',
            amount: tier.credit_limit,
            sourceKey: `checkout:${checkout.id}`,
            description: tier.display_name,
          });
        }
        await reapplyReversals(deps, tx, accountId, { invoiceId: null, checkoutId: checkout.id });
      }
      return 'processed' as const;
    });
    if (duplicate && sub) await refuseDuplicate(deps, provider, accountId, sub);
    return outcome;
  }

  if (event.type.startsWith('customer.subscription.')) {
    const sub = await provider.getSubscription(event.objectId);
    if (!sub) return 'ignored';
    const accountId = await accountForCustomer(deps.db, sub.customerId, sub.accountId);
    if (!accountId) return 'ignored';
    let duplicate = false;
    const outcome = await deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate' as const;
      duplicate = (await mirrorSubscription(deps, tx, accountId, sub, fetchedAt)) === 'duplicate';
      return 'processed' as const;
    });
    // customer.subscription.created (or any later event) of a second live subscription: cancelled.
    if (duplicate) await refuseDuplicate(deps, provider, accountId, sub);
    return outcome;
  }

  if (event.type.startsWith('invoice.')) {
    const invoice = await provider.getInvoice(event.objectId);
    if (!invoice) return 'ignored';
    const sub = invoice.subscriptionId ? await provider.getSubscription(invoice.subscriptionId) : null;
    const accountId = await accountForCustomer(
      deps.db,
      invoice.customerId,
      invoice.accountId ?? sub?.accountId ?? null,
    );
    if (!accountId) return 'ignored';
    let duplicate = false;
    const outcome = await deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate' as const;
      if (sub) duplicate = (await mirrorSubscription(deps, tx, accountId, sub, fetchedAt)) === 'duplicate';
      const row = await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
      // A duplicate subscription's invoice (also once it is cancelled) grants nothing: it is refunded.
      const foreign = Boolean(sub && row.subscriptionId && row.subscriptionId !== sub.id);
      if (!duplicate && !foreign) await grantInvoice(deps, tx, accountId, invoice);
      return 'processed' as const;
    });
    if (duplicate && sub) await refuseDuplicate(deps, provider, accountId, sub);
    return outcome;
  }
  return 'ignored';
};
