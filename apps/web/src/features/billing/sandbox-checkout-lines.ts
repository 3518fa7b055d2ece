/** What the sandbox checkout page lists: the purchase, the amount due today and what follows. */
import { findTier, formatMinor, PROMOTIONS, promotionalPrice, promotionNote } from '@switchboard/core';

export interface CheckoutLine {
  label: string;
  value: string;
}

const money = (value: number) => formatMinor(Math.round(value * 100));

/**
 * The lines of a sandbox checkout: 'Due today' is what paying charges now (a promotion's price for
 * its first months), then the regular price it renews at, and the promotion with what it covers.
 */
export const sandboxCheckoutLines = (checkout: {
  mode: 'subscription' | 'payment';
  priceId: string;
  couponId: string | null;
}): CheckoutLine[] => {
  const tier = findTier(checkout.priceId);
  if (!tier) return [];
  const promotion = checkout.couponId
    ? Object.values(PROMOTIONS).find((candidate) => candidate.couponId === checkout.couponId)
    : undefined;
  const lines: CheckoutLine[] = [
    { label: checkout.mode === 'payment' ? 'Purchase' : 'Plan', value: tier.display_name },
  ];
  if (checkout.mode === 'payment') {
    lines.push({ label: 'Due today', value: `${money(tier.price)} once` });
    return lines;
  }
  const today = promotion ? promotionalPrice(tier.price, promotion) : tier.price;
  lines.push({ label: 'Due today', value: money(today) });
  if (promotion) {
    lines.push({ label: 'Promotion', value: `${promotion.badge}: ${promotionNote(promotion, tier.price)}` });
  } else {
    lines.push({ label: 'Then', value: `${money(tier.price)} / ${tier.interval}` });
  }
  return lines;
};
