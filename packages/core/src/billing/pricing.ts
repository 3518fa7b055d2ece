import { ENTERPRISE_PLAN, FAMILY_PRICES, SECRET_GROUP, type TPlanCatalog, type TServerPlanTier } from './catalog';
import { pricePerCredit } from './format';
import { findPromotion, PROMOTIONS, SECRET_BONUS_CREDITS } from './promotions';

/** Pricing-card data of spec billing-accounts 3 (Plan, Credit pack), built from the served catalog. */
export interface TCreditPack {
  id: string;
  price: number;
  credits: number;
  pricePerCredit: number;
  label: string;
  savings: string | null;
  isDefault: boolean;
  tierCode: string;
  stripePriceId: string | null;
}

export interface TPlanVariant {
  price: number;
  priceId: string | null;
  originalPrice: number | null;
  couponId: string | null;
  creditPacks: TCreditPack[];
}

export interface TPricingPlan {
  name: string;
  description: string;
  monthly: TPlanVariant | null;
  yearly: TPlanVariant | null;
  isFeatured: boolean;
  features: string[];
  highlight: string | null;
  highlightedBenefits: string[];
  ctaHref: string | null;
  buttonText: string | null;
  planFamily: string;
  legacy: boolean;
  /** Price shown when the plan has no packs (Enterprise: from 2000 a month). */
  fromPrice?: number;
}

export type TPricingVariant = 'default' | 'secretModal' | 'promotional' | 'secret';

const packsOf = (tiers: TServerPlanTier[], interval: 'month' | 'year', bonusLabel = false): TCreditPack[] => {
  const list = tiers.filter((tier) => tier.interval === interval);
  const base = list[0] ? list[0].price / Math.max(1, list[0].credit_limit) : 0;
  return list.map((tier, index) => {
    const perCredit = tier.price / Math.max(1, tier.credit_limit);
    const saving =
      interval === 'year' && tier.original_price
        ? Math.round((1 - tier.price / tier.original_price) * 100)
        : base > 0
          ? Math.round((1 - perCredit / base) * 100)
          : 0;
    const credits = tier.credit_limit.toLocaleString('en-US');
    return {
      id: tier.tier_code,
      price: tier.price,
      credits: tier.credit_limit,
      pricePerCredit: pricePerCredit(tier.price, tier.credit_limit),
      label: bonusLabel
        ? `${credits} credits + ${SECRET_BONUS_CREDITS.toLocaleString('en-US')} bonus credits`
        : `${credits} credits`,
      savings: saving > 0 ? `Save ${saving}%` : null,
      isDefault: index === 0,
      tierCode: tier.tier_code,
      stripePriceId: tier.price_id,
    };
  });
};

const variantOf = (
  tiers: TServerPlanTier[],
  interval: 'month' | 'year',
  couponId: string | null = null,
  bonus = false,
) => {
  const packs = packsOf(tiers, interval, bonus);
  const first = packs[0];
  const tier = tiers.find((item) => item.interval === interval);
  if (!first || !tier) return null;
  return {
    price: first.price,
    priceId: first.stripePriceId,
    originalPrice: tier.original_price,
    couponId,
    creditPacks: packs,
  } satisfies TPlanVariant;
};

const familyPlan = (catalog: TPlanCatalog, family: string): TPricingPlan | null => {
  const info = FAMILY_PRICES.find((item) => item.family === family);
  const tiers = catalog[family] ?? [];
  if (!info || tiers.length === 0) return null;
  return {
    name: info.name,
    description: info.description,
    monthly: variantOf(tiers, 'month'),
    yearly: variantOf(tiers, 'year'),
    isFeatured: Boolean(info.isFeatured),
    features: info.features,
    highlight: null,
    highlightedBenefits: [],
    ctaHref: null,
    buttonText: null,
    planFamily: family,
    legacy: false,
  };
};

const legacyPlan = (catalog: TPlanCatalog, family: string): TPricingPlan | null => {
  const tiers = catalog[family] ?? [];
  const first = tiers[0];
  if (!first) return null;
  return {
    name: first.display_name,
    description: first.display_description,
    monthly: variantOf(tiers, 'month'),
    yearly: variantOf(tiers, 'year'),
    isFeatured: false,
    features: [],
    highlight: 'Legacy',
    highlightedBenefits: [],
    ctaHref: null,
    buttonText: null,
    planFamily: family,
    legacy: true,
  };
};

const enterprisePlan = (salesUrl: string): TPricingPlan => ({
  name: ENTERPRISE_PLAN.name,
  description: ENTERPRISE_PLAN.description,
  monthly: null,
  yearly: null,
  isFeatured: false,
  features: ENTERPRISE_PLAN.features,
  highlight: null,
  highlightedBenefits: [],
  ctaHref: salesUrl,
  buttonText: ENTERPRISE_PLAN.buttonText,
  planFamily: 'enterprise',
  legacy: false,
  fromPrice: ENTERPRISE_PLAN.fromPrice,
});

/** The cards a pricing page variant shows, in plan order. */
export const buildPricingPlans = (
  catalog: TPlanCatalog,
  variant: TPricingVariant,
  options: { salesUrl: string; promoCode?: string | null },
): TPricingPlan[] => {
  const present = (plan: TPricingPlan | null): plan is TPricingPlan => plan !== null;
  if (variant === 'promotional') {
    const promotion = findPromotion(options.promoCode) ?? PROMOTIONS.FIRSTMONTH69;
    const growth = familyPlan(catalog, 'growth');
    if (!growth || !promotion) return [];
    const monthly = growth.monthly ? { ...growth.monthly, couponId: promotion.couponId } : null;
    return [
      {
        ...growth,
        monthly,
        yearly: null,
        highlight: promotion.badge,
        buttonText: `Get ${promotion.discountPercentage}% Off First Month`,
      },
    ];
  }
  if (variant === 'secret') {
    return (catalog[SECRET_GROUP] ?? []).map((tier) => ({
      name: tier.display_name,
      description: tier.display_description,
      monthly: variantOf([{ ...tier, interval: 'month' }], 'month', null, tier.plan_code === 'secret_starter'),
      yearly: null,
      isFeatured: tier.plan_code === 'secret_starter',
      features: [],
      highlight: tier.original_price ? `${Math.round((1 - tier.price / tier.original_price) * 100)}% off` : null,
      highlightedBenefits:
        tier.mode === 'payment'
          ? ['One-time payment']
          : tier.plan_code === 'secret_starter'
            ? [`${SECRET_BONUS_CREDITS.toLocaleString('en-US')} bonus credits FOREVER`]
            : [],
      ctaHref: null,
      buttonText: null,
      planFamily: tier.plan_code,
      legacy: false,
    }));
  }
  if (variant === 'secretModal') {
    return [familyPlan(catalog, 'starter'), familyPlan(catalog, 'growth'), familyPlan(catalog, 'scale')].filter(
      present,
    );
  }
  return [
    familyPlan(catalog, 'starter'),
    familyPlan(catalog, 'growth'),
    familyPlan(catalog, 'scale'),
    enterprisePlan(options.salesUrl),
    legacyPlan(catalog, 'starter_legacy'),
    legacyPlan(catalog, 'entrepreneurs'),
  ].filter(present);
};

/**
 * Default card button text by mode: 'Get Started' on the secret page, 'Subscribe' elsewhere (the
 * landing page already has a 'Get started' button for signing in).
 */
export const defaultButtonText = (variant: TPricingVariant): string =>
  variant === 'secret' ? 'Get Started' : 'Subscribe';

/**
 * The card button's other states (spec: Pricing page, card button): a plan without a price id
 * cannot be bought yet and shows a disabled button; the plan the account is on shows as current;
 * a plan with a call-to-action links to sales.
 */
export const PLAN_BUTTON_TEXT = {
  withoutPrice: 'Coming Soon',
  current: 'Current Plan',
  contact: ENTERPRISE_PLAN.buttonText,
} as const;

/** The toggle shows only if some plan has a yearly variant and the page is not promotional or secret. */
export const showsIntervalToggle = (plans: TPricingPlan[], variant: TPricingVariant): boolean =>
  variant !== 'promotional' && variant !== 'secret' && plans.some((plan) => plan.yearly !== null);
