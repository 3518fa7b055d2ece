/** Stripe's charges and disputes read for refunds and disputes (reversals.ts). */
import type Stripe from 'stripe';
import type { ProviderCharge, ProviderDispute, ReversalSource } from './reversals';
import { idOf, mapStripeError, missing } from './stripe-mapping';

const orNull = async <T>(fn: () => Promise<T>): Promise<T | null> => {
  try {
    return await fn();
  } catch (error) {
    if (missing(error)) return null;
    throw mapStripeError(error);
  }
};

/** The charge, with the invoice its payment paid and, for a one-time purchase, its checkout. */
const chargeOf = async (stripe: Stripe, id: string): Promise<ProviderCharge | null> => {
  const charge = await orNull(() => stripe.charges.retrieve(id));
  if (!charge) return null;
  const intentId = idOf(charge.payment_intent as string | null);
  let invoiceId: string | null = null;
  let checkoutId: string | null = null;
  let accountId = charge.metadata?.accountId ?? null;
  if (intentId) {
    const [payments, sessions] = await Promise.all([
      orNull(() =>
        stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intentId }, limit: 1 }),
      ),
      orNull(() => stripe.checkout.sessions.list({ payment_intent: intentId, limit: 1 })),
    ]);
    invoiceId = idOf(payments?.data[0]?.invoice as string | null | undefined);
    const session = sessions?.data[0];
    checkoutId = session?.id ?? null;
    accountId ??= session?.metadata?.accountId ?? null;
  }
  return {
    id: charge.id,
    customerId: idOf(charge.customer as string | null),
    accountId,
    invoiceId,
    checkoutId,
    amount: charge.amount,
    amountRefunded: charge.amount_refunded,
    currency: charge.currency,
  };
};

const disputeOf = async (stripe: Stripe, id: string): Promise<ProviderDispute | null> => {
  const dispute = await orNull(() => stripe.disputes.retrieve(id));
  if (!dispute) return null;
  return {
    id: dispute.id,
    chargeId: idOf(dispute.charge as string) ?? '',
    amount: dispute.amount,
    status: dispute.status,
  };
};

export const stripeReversals = (stripe: Stripe): ReversalSource => ({
  getCharge: (id) => chargeOf(stripe, id),
  getDispute: (id) => disputeOf(stripe, id),
});
