/** Stripe objects and errors mapped to the payment-provider interface's shapes. */
import type Stripe from 'stripe';
import { AppError } from '../../platform/errors';
import type { ProviderInvoice, ProviderSubscription } from './provider';

export const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);
export const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Stripe errors become AppErrors with a message a person can act on. */
export const mapStripeError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const err = error as { type?: string; code?: string; decline_code?: string; message?: string; statusCode?: number };
  const code = err.decline_code ?? err.code;
  if (err.type === 'StripeCardError') {
    const message =
      code === 'insufficient_funds'
        ? 'Your card has insufficient funds.'
        : code === 'expired_card'
          ? 'Your card has expired. Please update your payment method.'
          : code === 'authentication_required'
            ? 'Your bank requires authentication. Please complete verification in the billing portal.'
            : 'Your card was declined.';
    return new AppError('BILLING_PAYMENT_FAILED', message, { reason: code ?? 'card_declined' });
  }
  if (code === 'resource_missing' && err.message?.includes('ubscription')) {
    return new AppError('BILLING_SUBSCRIPTION_NOT_FOUND', 'No active subscription was found for this customer.');
  }
  if (code === 'resource_missing' && err.message?.includes('ustomer')) {
    return new AppError(
      'BILLING_CUSTOMER_NOT_FOUND',
      'A billing account must be set up first. Please contact support.',
    );
  }
  if (err.type === 'StripeInvalidRequestError' && code === 'payment_method_required') {
    return new AppError('BILLING_PAYMENT_FAILED', 'A payment method is required. Add one in Settings.', {
      reason: code,
    });
  }
  return new AppError('BILLING_STRIPE_ERROR', 'The payment service had a temporary problem. Please retry.');
};

export const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (error) {
    throw mapStripeError(error);
  }
};

export const missing = (error: unknown) => (error as { code?: string; statusCode?: number }).statusCode === 404;

export const toSubscription = (
  sub: Stripe.Subscription,
  schedule?: Stripe.SubscriptionSchedule | null,
): ProviderSubscription => {
  const item = sub.items.data[0];
  const next = schedule?.phases?.find((phase) => phase.start_date > (item?.current_period_start ?? 0));
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    accountId: sub.metadata?.accountId ?? null,
    status: sub.status,
    priceId: item?.price?.id ?? null,
    amountCents: (item?.price?.unit_amount ?? 0) * (item?.quantity ?? 1),
    currentPeriodStart: seconds(item?.current_period_start),
    currentPeriodEnd: seconds(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    scheduleId: idOf(sub.schedule as string | null),
    scheduledPriceId: next ? idOf(next.items[0]?.price as string | { id: string }) : null,
    scheduledChangeDate: next ? seconds(next.start_date) : null,
  };
};

export const toInvoice = (invoice: Stripe.Invoice): ProviderInvoice => {
  const details = invoice.parent?.subscription_details;
  const lines = invoice.lines?.data ?? [];
  const line = lines.find((item) => item.amount >= 0 && item.pricing?.price_details?.price) ?? lines[0];
  return {
    id: invoice.id ?? '',
    customerId: idOf(invoice.customer as string) ?? '',
    subscriptionId: idOf(details?.subscription as string | null) ?? null,
    accountId: details?.metadata?.accountId ?? null,
    status: invoice.status ?? 'draft',
    amountPaid: invoice.amount_paid,
    billingReason: invoice.billing_reason,
    priceId: idOf(line?.pricing?.price_details?.price as string | null) ?? null,
    periodStart: seconds(line?.period?.start),
    periodEnd: seconds(line?.period?.end),
    paymentIntentStatus: null,
  };
};
