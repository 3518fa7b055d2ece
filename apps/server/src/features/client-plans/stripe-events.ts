/**
 * The agency's Stripe webhook events this feature acts on, parsed at the edge into the shapes of
 * events.ts (the payload is trusted once its signature is verified). Others are acknowledged and ignored.
 */
import type Stripe from 'stripe';
import { z } from 'zod';
import type { ClientPaymentEvent } from './events';

export const RELEVANT_EVENTS = [
  'checkout.session.completed',
  'invoice.paid',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

const ZId = z
  .union([z.string(), z.object({ id: z.string() })])
  .transform((value) => (typeof value === 'string' ? value : value.id));
const ZMetadata = z.record(z.string(), z.string().nullable()).nullish();
const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

const ZCheckoutSession = z.object({
  id: z.string(),
  mode: z.string().nullish(),
  customer: ZId.nullish(),
  subscription: ZId.nullish(),
  metadata: ZMetadata,
});

const ZInvoice = z.object({
  id: z.string(),
  customer: ZId.nullish(),
  amount_paid: z.number().int(),
  currency: z.string(),
  billing_reason: z.string().nullish(),
  hosted_invoice_url: z.string().nullish(),
  subscription: ZId.nullish(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: ZId.nullish(), metadata: ZMetadata }).nullish(),
    })
    .nullish(),
  lines: z
    .object({ data: z.array(z.object({ period: z.object({ start: z.number(), end: z.number() }).nullish() })) })
    .nullish(),
});

const ZSubscription = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  metadata: ZMetadata,
  items: z
    .object({
      data: z.array(z.object({ current_period_start: z.number().nullish(), current_period_end: z.number().nullish() })),
    })
    .nullish(),
});

/** The event as this feature understands it, or null for one it does not act on. */
export const parseAgencyEvent = (event: Stripe.Event): ClientPaymentEvent | null => {
  const object = event.data?.object as unknown;
  if (event.type === 'checkout.session.completed') {
    const session = ZCheckoutSession.safeParse(object);
    if (!session.success || session.data.mode !== 'subscription' || !session.data.subscription) return null;
    const meta = session.data.metadata ?? {};
    if (!meta.subaccountId || !meta.planId) return null;
    return {
      kind: 'checkout.completed',
      provider: 'stripe',
      sessionId: session.data.id,
      subaccountId: meta.subaccountId,
      planId: meta.planId,
      customerId: session.data.customer ?? null,
      subscriptionId: session.data.subscription,
    };
  }
  if (event.type === 'invoice.paid') {
    const invoice = ZInvoice.safeParse(object);
    if (!invoice.success) return null;
    const details = invoice.data.parent?.subscription_details;
    const meta = details?.metadata ?? {};
    const periods = (invoice.data.lines?.data ?? []).map((line) => line.period).filter((period) => Boolean(period));
    const last = periods.at(-1);
    return {
      kind: 'invoice.paid',
      provider: 'stripe',
      invoiceId: invoice.data.id,
      subscriptionId: details?.subscription ?? invoice.data.subscription ?? null,
      subaccountId: meta.subaccountId ?? null,
      planId: meta.planId ?? null,
      customerId: invoice.data.customer ?? null,
      amountMinor: invoice.data.amount_paid,
      currency: invoice.data.currency,
      billingReason: invoice.data.billing_reason ?? null,
      periodStart: seconds(last?.start),
      periodEnd: seconds(last?.end),
      url: invoice.data.hosted_invoice_url ?? null,
    };
  }
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    const subscription = ZSubscription.safeParse(object);
    if (!subscription.success) return null;
    const item = subscription.data.items?.data[0];
    return {
      kind: 'subscription.changed',
      subscriptionId: subscription.data.id,
      status: event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.data.status,
      cancelAtPeriodEnd: Boolean(subscription.data.cancel_at_period_end),
      periodStart: seconds(item?.current_period_start),
      periodEnd: seconds(item?.current_period_end),
      planId: subscription.data.metadata?.planId ?? null,
      created: new Date(event.created * 1000),
    };
  }
  return null;
};
