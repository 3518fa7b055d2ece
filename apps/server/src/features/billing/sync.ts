/**
 * Applies payment-provider events to our records. Every event is handled once (its id is stored in
 * billing_events in the same transaction as its effects), objects are re-fetched from the provider
 * instead of trusting the payload, and credit grants are keyed by invoice or checkout id, so
 * duplicates and out-of-order delivery end in the same state.
 */
import { SECRET_BONUS_CREDITS } from '@switchboard/core';
import { and, eq, or } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { monthsIn, tierForProviderPrice } from './catalog';
import { addGrant, addPlanPeriodGrant, lockAccount } from './ledger-repo';
import type { PaymentProvider, ProviderEvent, ProviderInvoice, ProviderSubscription } from './provider';
import { billingAccounts, billingEvents } from './schema';

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
  await tx
    .update(billingAccounts)
    .set({
      customerId: sub.customerId,
      subscriptionId: live ? sub.id : null,
      status: sub.status,
      priceId: live ? (tier?.price_id ?? null) : null,
      planCode: live && tier ? tier.plan_code : 'free',
      tierCode: live && tier ? tier.tier_code : 'free',
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
  const tier = tierForProviderPrice(deps.env, invoice.priceId);
  if (invoice.status !== 'paid' || !invoice.subscriptionId || !tier || !invoice.periodStart) return false;
  if (tier.plan_code === 'secret_starter') {
    // The secret-page Starter comes with 1,000 bonus credits that never expire, once per subscription.
    await addGrant(tx, {
      accountId,
      kind: 'bonus',
      amount: SECRET_BONUS_CREDITS,
      sourceKey: `bonus:${invoice.subscriptionId}`,
      description: 'Bonus credits',
    });
  }
  return addPlanPeriodGrant(tx, {
    accountId,
    amount: tier.credit_limit * monthsIn(invoice.periodStart, invoice.periodEnd),
    sourceKey: `invoice:${invoice.id}`,
    startsAt: invoice.periodStart,
    expiresAt: invoice.periodEnd,
    description: tier.display_name,
  });
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
  const fetchedAt = new Date();

  if (event.type.startsWith('checkout.session.')) {
    const checkout = await provider.getCheckout(event.objectId);
    if (!checkout) return 'ignored';
    const sub = checkout.subscriptionId ? await provider.getSubscription(checkout.subscriptionId) : null;
    const accountId = await accountForCustomer(deps.db, checkout.customerId, checkout.accountId);
    if (!accountId) return 'ignored';
    return deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate';
      await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
      if (checkout.customerId) {
        await tx
          .update(billingAccounts)
          .set({ customerId: checkout.customerId })
          .where(and(eq(billingAccounts.accountId, accountId)));
      }
      if (sub) await applySubscription(deps, tx, accountId, sub, fetchedAt);
      const paid = checkout.status === 'complete' && checkout.paymentStatus === 'paid';
      if (checkout.mode === 'payment' && paid) {
        const tier = tierForProviderPrice(deps.env, checkout.priceId);
        if (tier) {
          await addGrant(tx, {
            accountId,
            kind: 'bonus',
            amount: tier.credit_limit,
            sourceKey: `checkout:${checkout.id}`,
            description: tier.display_name,
          });
        }
      }
      return 'processed';
    });
  }

  if (event.type.startsWith('customer.subscription.')) {
    const sub = await provider.getSubscription(event.objectId);
    if (!sub) return 'ignored';
    const accountId = await accountForCustomer(deps.db, sub.customerId, sub.accountId);
    if (!accountId) return 'ignored';
    return deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate';
      await applySubscription(deps, tx, accountId, sub, fetchedAt);
      return 'processed';
    });
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
    return deps.db.transaction(async (tx) => {
      if (!(await claimEvent(tx, event, accountId))) return 'duplicate';
      if (sub) await applySubscription(deps, tx, accountId, sub, fetchedAt);
      else await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
      await grantInvoice(deps, tx, accountId, invoice);
      return 'processed';
    });
  }
  return 'ignored';
};
