/** The sandbox provider's stored shapes and price helpers (see sandbox-provider.ts). */
import { findTier, PROMOTIONS, promotionAppliesTo } from '@switchboard/core';
import type { CheckoutInput, ProviderInvoice, ProviderSubscription } from './provider';

export type Kind = 'customer' | 'checkout' | 'subscription' | 'invoice';

export interface SandboxCheckout extends CheckoutInput {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  subscriptionId: string | null;
  declined: boolean;
}

/** A sandbox subscription also remembers its checkout's promotion and how many invoices it discounted. */
export interface SandboxSubscription extends ProviderSubscription {
  couponId?: string | null;
  discountedInvoices?: number;
}

export interface StoredSubscription
  extends Omit<SandboxSubscription, 'currentPeriodStart' | 'currentPeriodEnd' | 'scheduledChangeDate'> {
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

/**
 * What a renewal of a sandbox subscription charges: the promotion of its checkout still applies
 * while fewer than its months of invoices were discounted (TWOMONTHS75: the first two) and the
 * subscription is on a plan the promotion is for; then the catalog price.
 */
export const renewalCharge = (sub: SandboxSubscription, priceId: string | null) => {
  const full = priceCents(priceId);
  const promotion = Object.values(PROMOTIONS).find((candidate) => candidate.couponId === sub.couponId);
  const tier = findTier(priceId);
  const used = sub.discountedInvoices ?? 0;
  if (!promotion || !tier || used >= promotion.durationMonths || !promotionAppliesTo(promotion, tier)) {
    return { amount: full, discountedInvoices: used };
  }
  return { amount: Math.round(full * (1 - promotion.discountPercentage / 100)), discountedInvoices: used + 1 };
};

export const discountPercent = (couponId?: string | null, promoCode?: string | null) => {
  const byCoupon = Object.values(PROMOTIONS).find((promotion) => promotion.couponId === couponId);
  const byCode = promoCode ? PROMOTIONS[promoCode.trim().toUpperCase()] : undefined;
  return (byCoupon ?? byCode)?.discountPercentage ?? 0;
};
