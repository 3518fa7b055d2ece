import { capabilitiesFor } from './capabilities';
import type { TCatalogTier } from './catalog';
import { pricePerCredit } from './format';

/**
 * One-time credit packs (checkout `mode: payment`): credits added once to the balance, on top of
 * the plan, that never expire. Priced at or above the Starter plan's price per credit ($0.05), so a
 * plan stays the better deal for steady use.
 */
const PACKS: [credits: number, price: number][] = [
  [500, 25],
  [2000, 90],
  [5000, 200],
];

export const CREDIT_PACK_FAMILY = 'credit_pack';

export const CREDIT_PACK_TIERS: TCatalogTier[] = PACKS.map(([credits, price], index) => ({
  plan_code: CREDIT_PACK_FAMILY,
  plan_family: CREDIT_PACK_FAMILY,
  tier_code: `pack_${credits}`,
  price_id: `sb_pack_${credits}`,
  interval: 'month',
  mode: 'payment',
  price,
  original_price: null,
  credit_limit: credits,
  display_name: `${credits.toLocaleString('en-US')} credits pack`,
  display_description: 'One-time purchase: credits that never expire.',
  display_order: 3000 + index,
  is_active: true,
  legacy: false,
  capabilities: capabilitiesFor('free'),
}));

export interface TCreditPackOffer {
  priceId: string;
  credits: number;
  /** USD, paid once. */
  price: number;
  pricePerCredit: number;
  label: string;
}

export const creditPackOffers = (): TCreditPackOffer[] =>
  CREDIT_PACK_TIERS.map((tier) => ({
    priceId: tier.price_id,
    credits: tier.credit_limit,
    price: tier.price,
    pricePerCredit: pricePerCredit(tier.price, tier.credit_limit),
    label: tier.display_name,
  }));

export const findCreditPack = (priceId: string | null | undefined): TCatalogTier | undefined =>
  priceId ? CREDIT_PACK_TIERS.find((tier) => tier.price_id === priceId) : undefined;

/**
 * Low-balance alerts: the thresholds (percent of the period's credits) that have been crossed by a
 * balance, highest first. An alert mails the lowest crossed threshold not yet mailed this period.
 */
export const crossedThresholds = (balance: number, periodCredits: number, thresholds: number[]): number[] =>
  periodCredits > 0
    ? [...new Set(thresholds)].filter((percent) => balance <= (periodCredits * percent) / 100).sort((a, b) => b - a)
    : [];

/** The threshold to mail now (the lowest crossed one below the lowest already mailed), or null. */
export const alertToSend = (
  balance: number,
  periodCredits: number,
  thresholds: number[],
  lowestMailed: number | null,
): number | null => {
  const crossed = crossedThresholds(balance, periodCredits, thresholds);
  const lowest = crossed.at(-1);
  if (lowest === undefined) return null;
  return lowestMailed === null || lowest < lowestMailed ? lowest : null;
};
