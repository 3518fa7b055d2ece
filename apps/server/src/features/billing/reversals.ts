/**
 * Refunds and disputes (charge.refunded, charge.dispute.created / updated / closed): the credits a
 * payment bought are taken back in proportion to what is reversed (what the balance cannot cover is
 * owed, reversal-ledger.ts), a dispute won gives them back, and `invoice.reversed` tells the
 * affiliate program to reverse or restore the invoice's commission in the same transaction.
 *
 * Each refund (per charge) and each dispute is one payment_reversals row, brought to the
 * provider's current state by every event about it (the charge's cumulative refunded amount, the
 * dispute's status, re-fetched, never read from the payload): a redelivered, late or reordered
 * event ends in the same state, and the event id is claimed with the change, so a delivery is
 * applied once even when two arrive at the same moment.
 */
import { and, eq, ne, or } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { newId } from '../../platform/ids';
import { lockAccount, roundCredits } from './ledger-repo';
import type { PaymentProvider, ProviderEvent } from './provider';
import { giveBack, grantsBoughtBy, takeBack } from './reversal-ledger';
import { paymentReversals } from './reversals-schema';
import { sandboxReversals } from './sandbox-reversals';
import { billingEvents } from './schema';
import type { StripeProvider } from './stripe-provider';
import { stripeReversals } from './stripe-reversals';

/** A charge (one payment) as refunds and disputes need it. Amounts in minor units. */
export interface ProviderCharge {
  id: string;
  customerId: string | null;
  accountId: string | null;
  /** The invoice the payment paid (commissions are keyed by it). */
  invoiceId: string | null;
  /** The checkout of a one-time purchase (its credits are keyed by it). */
  checkoutId: string | null;
  amount: number;
  /** Refunded so far, in total. */
  amountRefunded: number;
  currency: string;
}

export interface ProviderDispute {
  id: string;
  chargeId: string;
  amount: number;
  status: string;
}

export interface ReversalSource {
  getCharge(id: string): Promise<ProviderCharge | null>;
  getDispute(id: string): Promise<ProviderDispute | null>;
}

export const reversalSourceFor = (deps: Deps, provider: PaymentProvider): ReversalSource =>
  provider.kind === 'stripe' ? stripeReversals((provider as StripeProvider).stripe) : sandboxReversals(deps.db);

export const isReversalEvent = (type: string) => type === 'charge.refunded' || type.startsWith('charge.dispute.');

/** A dispute's state: open until the bank decides; an inquiry closed without a chargeback counts as won. */
export const disputeOutcome = (status: string): 'open' | 'won' | 'lost' =>
  status === 'lost' ? 'lost' : ['won', 'warning_closed', 'prevented'].includes(status) ? 'won' : 'open';

export interface ReversalState {
  key: string;
  kind: 'refund' | 'dispute';
  accountId: string;
  charge: ProviderCharge;
  /** Minor units reversed now: refunded in total, or disputed and not won. */
  amountReversed: number;
  status: string;
  /** The provider event bringing this state (ledger entries and commission adjustments are keyed by it). */
  eventId: string;
}

const sum = (values: number[]) => roundCredits(values.reduce((total, value) => total + value, 0));

/** Brings one refund or dispute to `state`, under the account lock (in the caller's transaction). */
export const applyReversal = async (deps: Deps, tx: Tx, state: ReversalState) => {
  const { accountId, charge } = state;
  await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
  await tx
    .insert(paymentReversals)
    .values({
      id: newId('paymentReversal'),
      key: state.key,
      kind: state.kind,
      accountId,
      invoiceId: charge.invoiceId,
      checkoutId: charge.checkoutId,
      amountPaid: charge.amount,
      currency: charge.currency,
      status: state.status,
    })
    .onConflictDoNothing();
  const [row] = await tx.select().from(paymentReversals).where(eq(paymentReversals.key, state.key)).for('update');
  if (!row) return;

  // The credits the payment bought, and what the payment's other refunds and disputes already took.
  const bought = await grantsBoughtBy(tx, accountId, charge);
  const boughtCredits = sum(bought.map((grant) => Number(grant.amount)));
  const samePayment = [
    charge.invoiceId ? eq(paymentReversals.invoiceId, charge.invoiceId) : undefined,
    charge.checkoutId ? eq(paymentReversals.checkoutId, charge.checkoutId) : undefined,
  ].filter((condition) => condition !== undefined);
  const others = samePayment.length
    ? await tx
        .select({ taken: paymentReversals.creditsTaken, owed: paymentReversals.creditsOwed })
        .from(paymentReversals)
        .where(and(eq(paymentReversals.accountId, accountId), ne(paymentReversals.key, state.key), or(...samePayment)))
    : [];
  const othersCredits = sum(others.map((other) => Number(other.taken) + Number(other.owed)));

  const fraction = charge.amount > 0 ? Math.min(1, Math.max(0, state.amountReversed / charge.amount)) : 0;
  const target = roundCredits(Math.min(boughtCredits * fraction, Math.max(0, boughtCredits - othersCredits)));
  let taken = Number(row.creditsTaken);
  let owed = Number(row.creditsOwed);
  const current = roundCredits(taken + owed);
  const label = state.kind === 'refund' ? 'Payment refunded' : 'Payment disputed';
  if (target > current) {
    const result = await takeBack(tx, {
      accountId,
      credits: roundCredits(target - current),
      preferred: bought.map((grant) => grant.id),
      key: `reversal:${state.eventId}`,
      description: label,
    });
    taken = roundCredits(taken + result.taken);
    owed = roundCredits(owed + result.owed);
  } else if (target < current) {
    const ends = bought.map((grant) => grant.expiresAt);
    const expiresAt = ends.length && ends.every(Boolean) ? new Date(Math.max(...ends.map((end) => Number(end)))) : null;
    const result = await giveBack(tx, {
      accountId,
      credits: roundCredits(current - target),
      owed,
      expiresAt,
      key: `restore:${state.eventId}`,
      description: 'Dispute won: credits restored',
    });
    owed = roundCredits(owed - result.cancelled);
    const fromTaken = Math.min(taken, result.granted);
    taken = roundCredits(taken - fromTaken);
    owed = roundCredits(Math.max(0, owed - (result.granted - fromTaken)));
  }
  await tx
    .update(paymentReversals)
    .set({
      amountReversed: state.amountReversed,
      status: state.status,
      creditsTaken: taken,
      creditsOwed: owed,
      updatedAt: new Date(),
    })
    .where(eq(paymentReversals.id, row.id));

  if (charge.invoiceId) {
    // The invoice's commission follows what is reversed of it, over all its refunds and disputes.
    const reversals = await tx
      .select({ amount: paymentReversals.amountReversed })
      .from(paymentReversals)
      .where(eq(paymentReversals.invoiceId, charge.invoiceId));
    const reversed = reversals.reduce((total, reversal) => total + reversal.amount, 0);
    await publish(
      deps,
      'invoice.reversed',
      {
        accountId,
        invoiceId: charge.invoiceId,
        reversedFraction: charge.amount > 0 ? Math.min(1, reversed / charge.amount) : 0,
        eventId: state.eventId,
      },
      tx,
    );
  }
};

/**
 * Applies again the refunds and disputes recorded for a payment whose credits or commission were
 * only just granted (the provider delivered the refund before the payment): the same state, now
 * with something to take back. Called where a payment's grant is written, in its transaction.
 */
export const reapplyReversals = async (
  deps: Deps,
  tx: Tx,
  accountId: string,
  payment: { invoiceId: string | null; checkoutId: string | null },
) => {
  const samePayment = [
    payment.invoiceId ? eq(paymentReversals.invoiceId, payment.invoiceId) : undefined,
    payment.checkoutId ? eq(paymentReversals.checkoutId, payment.checkoutId) : undefined,
  ].filter((condition) => condition !== undefined);
  if (!samePayment.length) return;
  const rows = await tx
    .select()
    .from(paymentReversals)
    .where(and(eq(paymentReversals.accountId, accountId), or(...samePayment)));
  for (const row of rows) {
    await applyReversal(deps, tx, {
      key: row.key,
      kind: row.kind,
      accountId,
      charge: {
        id: row.key,
        customerId: null,
        accountId,
        invoiceId: row.invoiceId,
        checkoutId: row.checkoutId,
        amount: row.amountPaid,
        amountRefunded: row.amountReversed,
        currency: row.currency,
      },
      amountReversed: row.amountReversed,
      status: row.status,
      eventId: `${row.id}:after:${payment.invoiceId ?? payment.checkoutId}`,
    });
  }
};

/** The state a refund or dispute event brings, read from the provider; null when it is not ours to act on. */
const stateOf = async (
  source: ReversalSource,
  event: ProviderEvent,
): Promise<Omit<ReversalState, 'accountId'> | null> => {
  if (event.type === 'charge.refunded') {
    const charge = await source.getCharge(event.objectId);
    if (!charge) return null;
    return {
      key: `refund:${charge.id}`,
      kind: 'refund',
      charge,
      amountReversed: Math.min(charge.amount, charge.amountRefunded),
      status: charge.amountRefunded >= charge.amount ? 'refunded' : 'partially_refunded',
      eventId: event.id,
    };
  }
  const dispute = await source.getDispute(event.objectId);
  if (!dispute) return null;
  const charge = await source.getCharge(dispute.chargeId);
  if (!charge) return null;
  const outcome = disputeOutcome(dispute.status);
  return {
    key: `dispute:${dispute.id}`,
    kind: 'dispute',
    charge,
    amountReversed: outcome === 'won' ? 0 : Math.min(charge.amount, dispute.amount),
    status: outcome,
    eventId: event.id,
  };
};

/** Handles charge.refunded and charge.dispute.* (sync.handleProviderEvent sends them here). */
export const handleReversalEvent = async (
  deps: Deps,
  provider: PaymentProvider,
  event: ProviderEvent,
  accountFor: (customerId: string | null, hint: string | null) => Promise<string | null>,
): Promise<'processed' | 'duplicate' | 'ignored'> => {
  const state = await stateOf(reversalSourceFor(deps, provider), event);
  if (!state) return 'ignored';
  const accountId = await accountFor(state.charge.customerId, state.charge.accountId);
  if (!accountId) return 'ignored';
  return deps.db.transaction(async (tx) => {
    // Claimed with the change: a second delivery (also one at the same moment) waits here and finds it taken.
    const claimed = await tx
      .insert(billingEvents)
      .values({ id: event.id, type: event.type, accountId })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!claimed[0]) return 'duplicate' as const;
    await applyReversal(deps, tx, { ...state, accountId });
    return 'processed' as const;
  });
};
