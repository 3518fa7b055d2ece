import { capabilitiesFor, type TCapabilities } from './capabilities';
import { CREDIT_PACK_TIERS } from './credit-packs';
import { DISCOUNT_MULTIPLIERS, discountedPrice, SECRET_TIERS } from './promotions';

/** Plan data of spec billing-accounts section 9, as pure data. Prices are USD. */
export const PLAN_FAMILIES = ['starter', 'growth', 'scale', 'enterprise'] as const;
export type TPlanFamily = (typeof PLAN_FAMILIES)[number];
export type TBillingInterval = 'month' | 'year';

export const ANNUAL_DISCOUNT_BADGE = '-40%';

interface FamilyPrices {
  family: TPlanFamily;
  name: string;
  description: string;
  credits: number[];
  monthly: number[];
  yearly: number[];
  /** Anchor price of the first yearly pack. */
  originalYearly: number;
  features: string[];
  isFeatured?: boolean;
}

export const FAMILY_PRICES: FamilyPrices[] = [
  {
    family: 'starter',
    name: 'Starter',
    description: 'Unlimited agents, 1 sub-account, basic support, basic demos.',
    credits: [500, 1000, 1500, 2000],
    monthly: [25, 35, 45, 55],
    yearly: [180, 252, 324, 396],
    originalYearly: 300,
    features: ['Unlimited agents', '1 sub-account', 'Basic support', 'Basic demos'],
  },
  {
    family: 'growth',
    name: 'Growth',
    description: '5 sub-accounts, advanced demos, marketplace.',
    credits: [3000, 4500, 6500, 9000],
    monthly: [79, 109, 149, 199],
    yearly: [568.8, 784.8, 1072.8, 1432.8],
    originalYearly: 948,
    features: ['Unlimited agents', '5 sub-accounts', 'Advanced demos', 'Marketplace access'],
    isFeatured: true,
  },
  {
    family: 'scale',
    name: 'Scale',
    description: 'Unlimited sub-accounts, white-label sub-accounts, white-label demos.',
    credits: [10000, 20000, 35000, 60000, 100000],
    monthly: [297, 497, 797, 1297, 1997],
    yearly: [2138.4, 3578.4, 5738.4, 9338.4, 14378.4],
    originalYearly: 3564,
    features: ['Unlimited sub-accounts', 'White-label sub-accounts', 'White-label demos', 'Marketplace access'],
  },
];

export const ENTERPRISE_PLAN = {
  family: 'enterprise' as const,
  name: 'Enterprise',
  description: 'Bulk credit deals, priority support, white-glove onboarding.',
  fromPrice: 2000,
  buttonText: 'Talk to Sales',
  features: ['Bulk credit deals', 'Priority support', 'White-glove onboarding'],
};

/** One purchasable price: a credit pack of a plan family in one billing interval. */
export interface TCatalogTier {
  plan_code: string;
  plan_family: string;
  tier_code: string;
  price_id: string;
  interval: TBillingInterval;
  mode: 'subscription' | 'payment';
  price: number;
  original_price: number | null;
  credit_limit: number;
  display_name: string;
  display_description: string;
  display_order: number;
  is_active: boolean;
  legacy: boolean;
  capabilities: TCapabilities;
}

export const priceIdFor = (family: string, interval: TBillingInterval, credits: number) =>
  `sb_${family}_${interval}_${credits}`;

const familyTiers = (plan: FamilyPrices, familyIndex: number): TCatalogTier[] =>
  (['month', 'year'] as const).flatMap((interval) =>
    plan.credits.map((credits, index) => {
      const price = (interval === 'month' ? plan.monthly : plan.yearly)[index] ?? 0;
      const monthly = plan.monthly[index] ?? 0;
      return {
        plan_code: `${plan.family}_${interval === 'month' ? 'monthly' : 'yearly'}`,
        plan_family: plan.family,
        tier_code: `${plan.family}_${credits}`,
        price_id: priceIdFor(plan.family, interval, credits),
        interval,
        mode: 'subscription' as const,
        price,
        original_price: interval === 'year' ? (index === 0 ? plan.originalYearly : monthly * 12) : null,
        credit_limit: credits,
        display_name: `${plan.name} ${credits.toLocaleString('en-US')} credits`,
        display_description: plan.description,
        display_order: familyIndex * 100 + index,
        is_active: true,
        legacy: false,
        capabilities: capabilitiesFor(plan.family),
      };
    }),
  );

/** Legacy plans (default variant only): Starter Legacy and Unlimited Legacy ('For AI Entrepreneurs'). */
const LEGACY_TIERS: TCatalogTier[] = [
  ['starter_legacy', 'starter_legacy', 'Starter Legacy', 25, 180, 500],
  ['entrepreneurs', 'entrepreneurs', 'For AI Entrepreneurs', 79, 462, 3000],
].flatMap(([code, family, name, monthly, yearly, credits], index) =>
  (['month', 'year'] as const).map((interval) => ({
    plan_code: `${code}_${interval === 'month' ? 'monthly' : 'yearly'}`,
    plan_family: String(family),
    tier_code: `${code}_${credits}`,
    price_id: priceIdFor(String(code), interval, Number(credits)),
    interval,
    mode: 'subscription' as const,
    price: Number(interval === 'month' ? monthly : yearly),
    original_price: interval === 'year' ? Number(monthly) * 12 : null,
    credit_limit: Number(credits),
    display_name: String(name),
    display_description:
      code === 'entrepreneurs'
        ? 'Unlimited sub-accounts, unlimited connections, marketplace access, unlimited AI builds and advanced prompt testing.'
        : 'Unlimited agents, 1 sub-account, basic support, basic demos.',
    display_order: 1000 + index,
    is_active: true,
    legacy: true,
    capabilities: capabilitiesFor(family === 'starter_legacy' ? 'starter' : String(family)),
  })),
);

/** Every purchasable tier, sorted by display order then credit limit. */
export const CATALOG_TIERS: TCatalogTier[] = [
  ...FAMILY_PRICES.flatMap((plan, index) => familyTiers(plan, index)),
  ...LEGACY_TIERS,
].sort((a, b) => a.display_order - b.display_order || a.credit_limit - b.credit_limit);

/**
 * Starter in discount mode outside the secret page (/pricing/discount): every monthly pack at the
 * Starter multiplier 0.75, charged as shown for as long as the subscription runs, against the
 * regular price, with the FOREVER bonus credits.
 */
export const DISCOUNT_TIERS: TCatalogTier[] = CATALOG_TIERS.filter(
  (tier) => tier.plan_family === 'starter' && tier.interval === 'month',
).map((tier, index) => ({
  ...tier,
  plan_code: 'discount_starter',
  tier_code: `discount_starter_${tier.credit_limit}`,
  price_id: `sb_discount_starter_${tier.credit_limit}`,
  price: discountedPrice(tier.price, DISCOUNT_MULTIPLIERS.starter),
  original_price: tier.price,
  display_order: 3000 + index,
}));

/** Every tier that can be bought, including the secret and discount plans and the one-time credit packs. */
export const ALL_TIERS: TCatalogTier[] = [...CATALOG_TIERS, ...SECRET_TIERS, ...DISCOUNT_TIERS, ...CREDIT_PACK_TIERS];

export const findTier = (priceId: string | null | undefined): TCatalogTier | undefined =>
  priceId ? ALL_TIERS.find((tier) => tier.price_id === priceId) : undefined;

/** The free or base plan every account has until it subscribes. */
export const FREE_TIER = {
  plan_code: 'free',
  plan_family: 'free',
  tier_code: 'free',
  display_name: 'Free',
  capabilities: capabilitiesFor('free'),
};

/** A tier as the server serves it: the payment price id is null when no price is configured. */
export type TServerPlanTier = Omit<TCatalogTier, 'price_id'> & { price_id: string | null };
export type TPlanCatalog = Record<string, TServerPlanTier[]>;

/** Key of the secret-page plans in the served catalog. */
export const SECRET_GROUP = 'secret';
/** Key of the discount page's plans in the served catalog. */
export const DISCOUNT_GROUP = 'discount';

/** Server plan catalog grouped by plan family, secret-page plans under 'secret' (GET /api/openrouter/plans). */
export const catalogByFamily = (resolvePriceId: (tier: TCatalogTier) => string | null = (tier) => tier.price_id) => {
  const plans: TPlanCatalog = {};
  const add = (key: string, tier: TCatalogTier) => {
    if (!tier.is_active) return;
    const list = plans[key] ?? [];
    list.push({ ...tier, price_id: resolvePriceId(tier) });
    plans[key] = list;
  };
  for (const tier of CATALOG_TIERS) add(tier.plan_family, tier);
  for (const tier of SECRET_TIERS) add(SECRET_GROUP, tier);
  for (const tier of DISCOUNT_TIERS) add(DISCOUNT_GROUP, tier);
  return plans;
};
