/** The sandbox provider's stored shapes and price helpers (see sandbox-provider.ts). */
import { findTier, PROMOTIONS } from '@switchboard/core';
import type { CheckoutInput, ProviderInvoice, ProviderSubscription } from './provider';

export type Kind = 'customer' | 'checkout' | 'subscription' | 'invoice';

export interface SandboxCheckout extends CheckoutInput {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  subscriptionId: string | null;
  declined: boolean;
}

export interface StoredSubscription
  extends Omit<ProviderSubscription, 'currentPeriodStart' | 'currentPeriodEnd' | 'scheduledChangeDate'> {
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  scheduledChangeDate: string | null;
}

export interface StoredInvoice extends Omit<ProviderInvoice, 'periodStart' | 'periodEnd'> {
  periodStart: string | null;
  periodEnd: string | null;
  description?: string;
}

export const iso = (date: Date | null) => (date ? date.toISOString() : null);
export const date = (text: string | null) => (text ? new Date(text) : null);

export const addInterval = (from: Date, interval: 'month' | 'year'): Date => {
  const next = new Date(from);
  if (interval === 'year') next.setUTCFullYear(next.getUTCFullYear() + 1);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

export const priceCents = (priceId: string | null) => Math.round((findTier(priceId)?.price ?? 0) * 100);
export const intervalOf = (priceId: string | null) => findTier(priceId)?.interval ?? 'month';

export const discountPercent = (couponId?: string | null, promoCode?: string | null) => {
  const byCoupon = Object.values(PROMOTIONS).find((promotion) => promotion.couponId === couponId);
  const byCode = promoCode ? PROMOTIONS[promoCode.trim().toUpperCase()] : undefined;
  return (byCoupon ?? byCode)?.discountPercentage ?? 0;
};
