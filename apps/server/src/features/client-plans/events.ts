/**
 * What a client's payment events change, whether they come from the agency's Stripe (webhook) or
 * from the sandbox checkout: the client's subscription, its invoices and its monthly allowance.
 * Each event is recorded by id in the transaction of its change, so a repeat acts once.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { dropCachedAllowance, monthOf } from '../billing/allowances';
import { subaccountAllowances, subaccountMonthlyUsage } from '../billing/schema';
import { subaccounts } from '../tenancy/schema';
import type { PlanRow } from './plans';
import { clientBillingEvents, clientInvoices, clientOverageCharges, clientPlans, clientSubscriptions } from './schema';

export type Provider = 'stripe' | 'sandbox';

export interface CheckoutCompleted {
  kind: 'checkout.completed';
  provider: Provider;
  sessionId: string;
  subaccountId: string;
  planId: string;
  customerId: string | null;
  subscriptionId: string;
}

export interface InvoicePaid {
  kind: 'invoice.paid';
  provider: Provider;
  invoiceId: string;
  subscriptionId: string | null;
  /** From the subscription's metadata, when the invoice carries it (it may arrive before the checkout event). */
  subaccountId: string | null;
  planId: string | null;
  customerId: string | null;
  amountMinor: number;
  currency: string;
  billingReason: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  url: string | null;
}

export interface SubscriptionChanged {
  kind: 'subscription.changed';
  subscriptionId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  periodStart: Date | null;
  periodEnd: Date | null;
  planId: string | null;
  created: Date;
}

export type ClientPaymentEvent = CheckoutCompleted | InvoicePaid | SubscriptionChanged;

/** Bills a month's extra credits on the provider (the agency's Stripe adds them to the next invoice). */
export type OverageBiller = (input: {
  subaccountId: string;
  customerId: string;
  subscriptionId: string;
  month: string;
  credits: number;
  amountMinor: number;
  currency: string;
}) => Promise<void>;

type Outcome = 'processed' | 'duplicate' | 'ignored';

const ENDED = new Set(['canceled', 'incomplete_expired']);

const planOf = async (tx: Tx, accountId: string, planId: string | null): Promise<PlanRow | undefined> => {
  if (!planId) return undefined;
  const [plan] = await tx
    .select()
    .from(clientPlans)
    .where(and(eq(clientPlans.id, planId), eq(clientPlans.accountId, accountId)));
  return plan;
};

const ownsSubaccount = async (tx: Tx, accountId: string, subaccountId: string | null): Promise<boolean> => {
  if (!subaccountId) return false;
  const [row] = await tx
    .select({ id: subaccounts.id })
    .from(subaccounts)
    .where(and(eq(subaccounts.id, subaccountId), eq(subaccounts.accountId, accountId)));
  return Boolean(row);
};

/**
 * The client's allowance follows its plan: its included credits a month when extra credits are not
 * sold (a hard stop), no cap when they are (extra credits are billed after the month); 0 when the
 * subscription ended.
 */
export const setPlanAllowance = async (
  tx: Tx,
  accountId: string,
  subaccountId: string,
  plan: PlanRow | null,
  touched: Set<string>,
) => {
  touched.add(subaccountId);
  if (plan && plan.extraCreditPriceMinor !== null) {
    await tx.delete(subaccountAllowances).where(eq(subaccountAllowances.subaccountId, subaccountId));
    return;
  }
  const monthlyCredits = plan ? plan.includedCredits : 0;
  await tx
    .insert(subaccountAllowances)
    .values({ subaccountId, accountId, monthlyCredits })
    .onConflictDoUpdate({ target: subaccountAllowances.subaccountId, set: { monthlyCredits, updatedAt: new Date() } });
};

const subscriptionBy = async (tx: Tx, accountId: string, subscriptionId: string | null) => {
  if (!subscriptionId) return undefined;
  const [row] = await tx
    .select()
    .from(clientSubscriptions)
    .where(and(eq(clientSubscriptions.subscriptionId, subscriptionId), eq(clientSubscriptions.accountId, accountId)))
    .for('update');
  return row;
};

const onCheckoutCompleted = async (tx: Tx, accountId: string, event: CheckoutCompleted, touched: Set<string>) => {
  const plan = await planOf(tx, accountId, event.planId);
  if (!plan || !(await ownsSubaccount(tx, accountId, event.subaccountId))) return 'ignored' as const;
  const values = {
    provider: event.provider,
    customerId: event.customerId,
    subscriptionId: event.subscriptionId,
    planId: plan.id,
    cancelAtPeriodEnd: false,
    updatedAt: new Date(),
  };
  await tx
    .insert(clientSubscriptions)
    .values({ subaccountId: event.subaccountId, accountId, status: 'active', ...values })
    .onConflictDoUpdate({
      target: clientSubscriptions.subaccountId,
      set: {
        ...values,
        // A later event of the same subscription (invoice, update) may have said more already.
        status: sql`CASE WHEN ${clientSubscriptions.subscriptionId} = ${event.subscriptionId} AND ${clientSubscriptions.status} <> 'none' THEN ${clientSubscriptions.status} ELSE 'active' END`,
      },
    });
  await setPlanAllowance(tx, accountId, event.subaccountId, plan, touched);
  return 'processed' as const;
};

/** Extra credits of the month before the renewed period, billed once (when the plan sells them). */
const billOverage = async (
  deps: Deps,
  tx: Tx,
  input: { subaccountId: string; plan: PlanRow; customerId: string | null; subscriptionId: string; periodStart: Date },
  biller: OverageBiller | null,
) => {
  const price = input.plan.extraCreditPriceMinor;
  if (price === null || !biller || !input.customerId) return;
  const previous = new Date(Date.UTC(input.periodStart.getUTCFullYear(), input.periodStart.getUTCMonth() - 1, 15));
  const month = monthOf(previous);
  const [usage] = await tx
    .select({ credits: subaccountMonthlyUsage.credits })
    .from(subaccountMonthlyUsage)
    .where(and(eq(subaccountMonthlyUsage.subaccountId, input.subaccountId), eq(subaccountMonthlyUsage.month, month)));
  const extra = Math.max(0, Number(usage?.credits ?? 0) - input.plan.includedCredits);
  const amountMinor = Math.round(extra * Number(price));
  if (amountMinor <= 0) return;
  const inserted = await tx
    .insert(clientOverageCharges)
    .values({ subaccountId: input.subaccountId, month, credits: extra, amountMinor })
    .onConflictDoNothing()
    .returning({ month: clientOverageCharges.month });
  if (inserted.length === 0) return;
  // Inside the transaction: a failure rolls the charge row back and the provider retries the event.
  await biller({
    subaccountId: input.subaccountId,
    customerId: input.customerId,
    subscriptionId: input.subscriptionId,
    month,
    credits: extra,
    amountMinor,
    currency: input.plan.currency,
  });
  deps.log.info({ subaccountId: input.subaccountId, month, extra, amountMinor }, 'client extra credits billed');
};

const onInvoicePaid = async (
  deps: Deps,
  tx: Tx,
  accountId: string,
  event: InvoicePaid,
  touched: Set<string>,
  biller: OverageBiller | null,
) => {
  let row = await subscriptionBy(tx, accountId, event.subscriptionId);
  if (!row && event.subscriptionId && (await ownsSubaccount(tx, accountId, event.subaccountId))) {
    // The invoice came before the checkout's event: its subscription metadata names the client.
    const plan = await planOf(tx, accountId, event.planId);
    if (!plan) return 'ignored' as const;
    await onCheckoutCompleted(
      tx,
      accountId,
      {
        kind: 'checkout.completed',
        provider: event.provider,
        sessionId: '',
        subaccountId: event.subaccountId as string,
        planId: plan.id,
        customerId: event.customerId,
        subscriptionId: event.subscriptionId,
      },
      touched,
    );
    row = await subscriptionBy(tx, accountId, event.subscriptionId);
  }
  if (!row || !event.subscriptionId) return 'ignored' as const;
  const plan = await planOf(tx, accountId, row.planId);
  await tx
    .insert(clientInvoices)
    .values({
      id: newId('clientInvoice'),
      accountId,
      subaccountId: row.subaccountId,
      provider: event.provider,
      providerInvoiceId: event.invoiceId,
      kind: 'subscription',
      planId: row.planId,
      amountMinor: event.amountMinor,
      currency: event.currency.toLowerCase(),
      status: 'paid',
      periodStart: event.periodStart,
      periodEnd: event.periodEnd,
      paidAt: new Date(),
      url: event.url,
    })
    .onConflictDoNothing();
  const newer = !row.currentPeriodEnd || (event.periodEnd && event.periodEnd >= row.currentPeriodEnd);
  if (newer && !ENDED.has(row.status)) {
    await tx
      .update(clientSubscriptions)
      .set({
        status: 'active',
        currentPeriodStart: event.periodStart ?? row.currentPeriodStart,
        currentPeriodEnd: event.periodEnd ?? row.currentPeriodEnd,
        updatedAt: new Date(),
      })
      .where(eq(clientSubscriptions.subaccountId, row.subaccountId));
    await setPlanAllowance(tx, accountId, row.subaccountId, plan ?? null, touched);
  }
  if (plan && event.billingReason === 'subscription_cycle' && event.periodStart) {
    await billOverage(
      deps,
      tx,
      {
        subaccountId: row.subaccountId,
        plan,
        customerId: row.customerId ?? event.customerId,
        subscriptionId: event.subscriptionId,
        periodStart: event.periodStart,
      },
      biller,
    );
  }
  return 'processed' as const;
};

const onSubscriptionChanged = async (tx: Tx, accountId: string, event: SubscriptionChanged, touched: Set<string>) => {
  const row = await subscriptionBy(tx, accountId, event.subscriptionId);
  if (!row) return 'ignored' as const;
  if (row.syncedAt && row.syncedAt > event.created) return 'ignored' as const;
  const plan = (await planOf(tx, accountId, event.planId)) ?? (await planOf(tx, accountId, row.planId));
  await tx
    .update(clientSubscriptions)
    .set({
      status: event.status,
      cancelAtPeriodEnd: event.cancelAtPeriodEnd,
      currentPeriodStart: event.periodStart ?? row.currentPeriodStart,
      currentPeriodEnd: event.periodEnd ?? row.currentPeriodEnd,
      planId: plan?.id ?? row.planId,
      syncedAt: event.created,
      updatedAt: new Date(),
    })
    .where(eq(clientSubscriptions.subaccountId, row.subaccountId));
  if (ENDED.has(event.status)) await setPlanAllowance(tx, accountId, row.subaccountId, null, touched);
  else if (plan && plan.id !== row.planId) await setPlanAllowance(tx, accountId, row.subaccountId, plan, touched);
  return 'processed' as const;
};

/**
 * Applies one payment event of the agency's clients, once per event id: the id is recorded in the
 * transaction that applies it (a concurrent repeat waits on it, then finds it).
 */
export const applyClientEvent = async (
  deps: Deps,
  accountId: string,
  eventId: string,
  type: string,
  event: ClientPaymentEvent,
  biller: OverageBiller | null = null,
): Promise<Outcome> => {
  const touched = new Set<string>();
  const outcome = await deps.db.transaction(async (tx) => {
    const recorded = await tx
      .insert(clientBillingEvents)
      .values({ accountId, eventId, type })
      .onConflictDoNothing()
      .returning({ eventId: clientBillingEvents.eventId });
    if (recorded.length === 0) return 'duplicate' as const;
    if (event.kind === 'checkout.completed') return onCheckoutCompleted(tx, accountId, event, touched);
    if (event.kind === 'invoice.paid') return onInvoicePaid(deps, tx, accountId, event, touched, biller);
    return onSubscriptionChanged(tx, accountId, event, touched);
  });
  for (const subaccountId of touched) dropCachedAllowance(subaccountId);
  return outcome;
};
