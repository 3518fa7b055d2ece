import { capabilitiesFor } from './capabilities';
import type { TCatalogTier } from './catalog';

/** Checkout promotions, keyed by upper-case promo code (spec billing-accounts 3 and 9). */
export interface TPromotion {
  badge: string;
  discountPercentage: number;
  displayPrice: number;
  originalPrice: number;
  couponId: string;
  /** Applied without the user typing the code. */
  automatic?: boolean;
  /** How many monthly invoices the discount applies to. */
  durationMonths: number;
  /** Plan families and billing intervals the promotion applies to (checked by the server). */
  planFamilies: readonly string[];
  intervals: readonly ('month' | 'year')[];
}

export const PROMOTIONS: Record<string, TPromotion> = {
  FIRSTMONTH69: {
    badge: '69% Off First Month',
    discountPercentage: 69,
    displayPrice: 24.49,
    originalPrice: 79,
    couponId: 'sb_coupon_first_month_69',
    durationMonths: 1,
    planFamilies: ['growth'],
    intervals: ['month'],
  },
  TWOMONTHS75: {
    badge: '75% Off For 2 Months',
    discountPercentage: 75,
    displayPrice: 19.75,
    originalPrice: 79,
    couponId: 'sb_coupon_two_months_75',
    automatic: true,
    durationMonths: 2,
    planFamilies: ['growth'],
    intervals: ['month'],
  },
};

export const findPromotion = (code: string | null | undefined): TPromotion | undefined =>
  code && Object.hasOwn(PROMOTIONS, code.trim().toUpperCase()) ? PROMOTIONS[code.trim().toUpperCase()] : undefined;

/** Whether a promotion applies to a tier (its plan family and billing interval; subscriptions only). */
export const promotionAppliesTo = (
  promotion: TPromotion,
  tier: { plan_family: string; interval: 'month' | 'year'; mode: 'subscription' | 'payment' },
): boolean =>
  tier.mode === 'subscription' &&
  promotion.planFamilies.includes(tier.plan_family) &&
  promotion.intervals.includes(tier.interval);

/** The price shown for a pack under a promotion (79 at 69% off shows 24.49). */
export const promotionalPrice = (price: number, promotion: TPromotion): number =>
  Math.round(price * (1 - promotion.discountPercentage / 100) * 100) / 100;

/** What a promotional price covers: 'First month, then $79 /month'. */
export const promotionNote = (promotion: TPromotion, regularPrice: number): string => {
  const regular = Number.isInteger(regularPrice) ? `$${regularPrice}` : `$${regularPrice.toFixed(2)}`;
  const months = promotion.durationMonths === 1 ? 'First month' : `First ${promotion.durationMonths} months`;
  return `${months}, then ${regular} /month`;
};

/** Discount display multipliers: starter in secret mode, starter otherwise and the lifetime plan. */
export const DISCOUNT_MULTIPLIERS = { starterSecret: 0.79, starter: 0.75, lifetime: 0.75 } as const;

/**
 * The discount display multiplier of spec 9 for a plan in discount mode: 0.79 for Starter on the
 * secret page, 0.75 for Starter elsewhere and for the lifetime plan, otherwise none (1).
 */
export const discountMultiplier = (plan: { family: string; lifetime?: boolean }, options: { secret: boolean }) => {
  if (plan.lifetime) return DISCOUNT_MULTIPLIERS.lifetime;
  if (plan.family !== 'starter') return 1;
  return options.secret ? DISCOUNT_MULTIPLIERS.starterSecret : DISCOUNT_MULTIPLIERS.starter;
};

/** A price at a discount multiplier, to the cent (25 at 0.79 is 19.75; 9,333.33 at 0.75 is 7,000). */
export const discountedPrice = (price: number, multiplier: number): number =>
  Math.round(price * multiplier * 100) / 100;

/** Bonus credits of a Starter bought in discount mode, marked FOREVER on its card. */
export const SECRET_BONUS_CREDITS = 1000;

/**
 * Plans bought in discount mode (the secret page's Starter and the discount page's Starter): each
 * subscription comes with the bonus credits once, and they never expire.
 */
export const grantsForeverBonus = (tier: { plan_code: string }): boolean =>
  tier.plan_code === 'secret_starter' || tier.plan_code === 'discount_starter';

/** The lifetime plan's list price; the secret page sells it in discount mode, at the 0.75 multiplier. */
export const LIFETIME_LIST_PRICE = 9333.33;

const secretTier = (
  code: string,
  name: string,
  description: string,
  price: number,
  original: number,
  credits: number,
  interval: 'month' | 'year',
  mode: 'subscription' | 'payment',
  family: string,
  order: number,
): TCatalogTier => ({
  plan_code: code,
  plan_family: family,
  tier_code: `${code}_${credits}`,
  price_id: `sb_secret_${code}`,
  interval,
  mode,
  price,
  original_price: original,
  credit_limit: credits,
  display_name: name,
  display_description: description,
  display_order: 2000 + order,
  is_active: true,
  legacy: false,
  capabilities: capabilitiesFor(family),
});

/** Plans of the secret page (forced monthly billing). */
export const SECRET_TIERS: TCatalogTier[] = [
  secretTier(
    'secret_starter',
    'Starter',
    '21% off with 1,000 free bonus credits.',
    // Starter 25 with the secret page's 21% off (display multiplier 0.79): 19.75 is what is charged.
    discountedPrice(25, discountMultiplier({ family: 'starter' }, { secret: true })),
    25,
    500,
    'month',
    'subscription',
    'starter',
    0,
  ),
  secretTier(
    'zoom_coaching',
    'Zoom Coaching Call',
    'A one-year coaching programme with live calls, 50% off.',
    997,
    2000,
    3000,
    'year',
    'subscription',
    'growth',
    1,
  ),
  secretTier(
    'mentoring_lifetime',
    'Mentoring + Lifetime',
    'One-time payment: mentoring and 3,000 credits every month for life.',
    // The list price at the lifetime plan's multiplier 0.75: 7,000 is what is shown and charged.
    discountedPrice(
      LIFETIME_LIST_PRICE,
      discountMultiplier({ family: 'entrepreneurs', lifetime: true }, { secret: true }),
    ),
    30000,
    3000,
    'month',
    'payment',
    'entrepreneurs',
    2,
  ),
];

/** Other marketing plans (secretModal variant). Amounts in cents match the subscription-details table. */
export const MARKETING_PLANS = [
  {
    name: 'Monthly',
    price: 19.75,
    originalPrice: 79,
    description: 'Everything in For AI Entrepreneurs, billed monthly.',
  },
  { name: 'Basic', price: 19.75, originalPrice: 79, description: 'Limited testing of 100 per month, GPT-3.5 only.' },
  {
    name: 'Yearly',
    price: 462.15,
    originalPrice: 948,
    description: 'Everything in For AI Entrepreneurs, billed yearly.',
  },
  { name: 'Starter yearly', price: 142.4, originalPrice: 237, description: 'Starter billed yearly.' },
] as const;

/** Recognised subscription amounts in cents (spec 3, Subscription details). */
export const SUBSCRIPTION_AMOUNTS: Record<number, string> = {
  1975: 'starter monthly',
  7900: 'entrepreneurs monthly',
  14200: 'starter annual',
  46200: 'entrepreneurs annual',
};

/** The evaluation flow's Upgrade dialog amounts (spec 9). */
export const UPGRADE_DIALOG = {
  monthlyPrice: 79,
  yearlyPrice: 462,
  yearlyPerMonth: 38.5,
  yearlySavings: 'save 51%',
  yearlyAnchor: 948,
  monthlyPriceId: 'sb_entrepreneurs_month_3000',
  yearlyPriceId: 'sb_entrepreneurs_year_3000',
} as const;
