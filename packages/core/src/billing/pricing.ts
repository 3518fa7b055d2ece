import {
  DISCOUNT_GROUP,
  ENTERPRISE_PLAN,
  FAMILY_PRICES,
  SECRET_GROUP,
  type TPlanCatalog,
  type TServerPlanTier,
} from './catalog';
import { formatCreditCount, pricePerCredit } from './format';
import {
  DISCOUNT_MULTIPLIERS,
  findPromotion,
  grantsForeverBonus,
  LIFETIME_LIST_PRICE,
  promotionalPrice,
  promotionNote,
  SECRET_BONUS_CREDITS,
} from './promotions';

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
  /** How the price is paid: every month, every year, or once. */
  billing: 'month' | 'year' | 'one_time';
  /** The like-for-like price it is compared with (same credits, same period), if any. */
  anchorPrice: number | null;
  /** What the price covers when it is not the lasting one (a promotion's first months). */
  note?: string | null;
  /** The credits come every month for one payment (the lifetime plan), not once. */
  creditsEvery?: 'month' | null;
  /** What the price per credit is reckoned over, when not one payment's credits ('over the first year'). */
  pricePerCreditBasis?: string | null;
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

/**
 * Pricing page variants: the default page, the pricing modal, a promo code's page, the secret page
 * (discount mode on, forced monthly) and the discount page (discount mode on outside the secret page).
 */
export type TPricingVariant = 'default' | 'secretModal' | 'promotional' | 'secret' | 'discount';

/** Variants that show monthly billing only, without the Monthly/Annually toggle. */
const MONTHLY_ONLY: readonly TPricingVariant[] = ['promotional', 'secret', 'discount'];
export const isMonthlyOnly = (variant: TPricingVariant) => MONTHLY_ONLY.includes(variant);

const FOREVER_BONUS = `${SECRET_BONUS_CREDITS.toLocaleString('en-US')} bonus credits FOREVER`;
const percentOff = (multiplier: number) => `${Math.round((1 - multiplier) * 100)}% off`;
const LIFETIME_NOTE = `${percentOff(DISCOUNT_MULTIPLIERS.lifetime)} the $${LIFETIME_LIST_PRICE.toLocaleString('en-US')} list price`;

/**
 * The credits a pack grants per payment: a yearly invoice grants 12 times the monthly credits (the
 * server's rule, sync.grantInvoice), a one-time purchase its credits once.
 */
export const creditsPerPayment = (tier: { credit_limit: number; interval: 'month' | 'year'; mode?: string }) =>
  tier.mode !== 'payment' && tier.interval === 'year' ? tier.credit_limit * 12 : tier.credit_limit;

const packsOf = (
  tiers: TServerPlanTier[],
  interval: 'month' | 'year',
  bonusLabel = false,
  billing?: TCreditPack['billing'],
): TCreditPack[] => {
  const list = tiers.filter((tier) => tier.interval === interval);
  // Credits per payment: a pack billed yearly grants twelve months of credits per invoice, also
  // on the secret page where its card sits in the monthly grid (the one-year coaching offer).
  const creditsOf = (tier: TServerPlanTier) =>
    billing ? creditsPerPayment({ ...tier, interval: billing === 'year' ? 'year' : 'month' }) : creditsPerPayment(tier);
  const base = list[0] ? list[0].price / Math.max(1, creditsOf(list[0])) : 0;
  return list.map((tier, index) => {
    const granted = creditsOf(tier);
    const perCredit = tier.price / Math.max(1, granted);
    // Yearly packs compare with twelve months of the same pack (the anchor), monthly ones with the
    // first pack's price per credit.
    const saving =
      interval === 'year' && tier.original_price
        ? Math.round((1 - tier.price / tier.original_price) * 100)
        : base > 0
          ? Math.round((1 - perCredit / base) * 100)
          : 0;
    const credits = granted.toLocaleString('en-US');
    return {
      id: tier.tier_code,
      price: tier.price,
      credits: granted,
      pricePerCredit: pricePerCredit(tier.price, granted),
      billing: billing ?? (tier.mode === 'payment' ? 'one_time' : interval),
      anchorPrice: tier.original_price,
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
  billing?: TCreditPack['billing'],
) => {
  const packs = packsOf(tiers, interval, bonus, billing);
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

/** The lifetime plan's card: one payment, then its credits every month. */
const lifetimePack = (pack: TCreditPack): TCreditPack => ({
  ...pack,
  note: LIFETIME_NOTE,
  label: `${formatCreditCount(pack.credits)} credits every month`,
  creditsEvery: 'month',
  pricePerCredit: pricePerCredit(pack.price, pack.credits * 12),
  pricePerCreditBasis: 'over the first year',
});

/**
 * The credits line under a card's pack picker: '500 credits · $0.0500 per credit', '6,000 credits a
 * year · …', or for the lifetime plan '3,000 credits every month · $0.1944 per credit over the
 * first year'.
 */
export const creditsLine = (pack: TCreditPack): string => {
  const every = pack.creditsEvery === 'month' ? ' every month' : pack.billing === 'year' ? ' a year' : '';
  const basis = pack.pricePerCreditBasis ? ` ${pack.pricePerCreditBasis}` : '';
  return `${formatCreditCount(pack.credits)} credits${every} · $${pack.pricePerCredit.toFixed(4)} per credit${basis}`;
};

/** The cards a pricing page variant shows, in plan order. */
export const buildPricingPlans = (
  catalog: TPlanCatalog,
  variant: TPricingVariant,
  options: { salesUrl: string; promoCode?: string | null },
): TPricingPlan[] => {
  const present = (plan: TPricingPlan | null): plan is TPricingPlan => plan !== null;
  const promotion = variant === 'promotional' ? findPromotion(options.promoCode) : undefined;
  // An unknown promo code shows the default page, never another offer.
  if (variant === 'promotional' && !promotion) return buildPricingPlans(catalog, 'default', options);
  if (variant === 'promotional' && promotion) {
    const growth = familyPlan(catalog, 'growth');
    if (!growth) return [];
    // The card shows the discounted first-month price against the regular one; the server applies
    // the promotion from the code (the client never names a coupon).
    const monthly = growth.monthly
      ? {
          ...growth.monthly,
          price: promotionalPrice(growth.monthly.price, promotion),
          originalPrice: growth.monthly.price,
          couponId: null,
          creditPacks: growth.monthly.creditPacks.map((pack) => ({
            ...pack,
            price: promotionalPrice(pack.price, promotion),
            pricePerCredit: pricePerCredit(promotionalPrice(pack.price, promotion), pack.credits),
            anchorPrice: pack.price,
            note: promotionNote(promotion, pack.price),
          })),
        }
      : null;
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
  if (variant === 'discount') {
    // Discount mode outside the secret page: Starter at 0.75 with the FOREVER bonus; the other plans
    // at their regular monthly prices.
    const starter = familyPlan(catalog, 'starter');
    const discounted = variantOf(catalog[DISCOUNT_GROUP] ?? [], 'month', null, true);
    const regular = (plan: TPricingPlan | null): TPricingPlan | null =>
      plan ? { ...plan, yearly: null, isFeatured: false } : null;
    const cards: (TPricingPlan | null)[] = [
      starter && discounted
        ? {
            ...starter,
            monthly: discounted,
            yearly: null,
            isFeatured: true,
            highlight: percentOff(DISCOUNT_MULTIPLIERS.starter),
            highlightedBenefits: [FOREVER_BONUS],
          }
        : null,
      regular(familyPlan(catalog, 'growth')),
      regular(familyPlan(catalog, 'scale')),
    ];
    return cards.filter(present);
  }
  if (variant === 'secret') {
    return (catalog[SECRET_GROUP] ?? []).map((tier) => {
      const monthly = variantOf(
        [{ ...tier, interval: 'month' }],
        'month',
        null,
        grantsForeverBonus(tier),
        tier.mode === 'payment' ? 'one_time' : tier.interval,
      );
      return {
        name: tier.display_name,
        description: tier.display_description,
        // The lifetime plan says what its price is (the list price at its discount multiplier),
        // that its credits come every month, and its price per credit over the first year.
        monthly:
          monthly && tier.mode === 'payment'
            ? { ...monthly, creditPacks: monthly.creditPacks.map(lifetimePack) }
            : monthly,
        yearly: null,
        isFeatured: grantsForeverBonus(tier),
        features: [],
        highlight: tier.original_price ? `${Math.round((1 - tier.price / tier.original_price) * 100)}% off` : null,
        highlightedBenefits:
          tier.mode === 'payment' ? ['One-time payment'] : grantsForeverBonus(tier) ? [FOREVER_BONUS] : [],
        ctaHref: null,
        buttonText: null,
        planFamily: tier.plan_code,
        legacy: false,
      };
    });
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

/** The toggle shows only if some plan has a yearly variant and the page is not monthly-only. */
export const showsIntervalToggle = (plans: TPricingPlan[], variant: TPricingVariant): boolean =>
  !isMonthlyOnly(variant) && plans.some((plan) => plan.yearly !== null);

/**
 * What a card shows for a pack (spec billing-accounts 3 and 9, honestly): the amount, its unit,
 * the struck-through anchor of the same kind (per month against per month, a year against a
 * year), and a note. Yearly packs show the monthly equivalent with 'Billed yearly ($…)'; a one-year
 * offer shows '/year'; a one-time payment shows 'one-time', never '/month'.
 */
export const cardPrice = (
  pack: TCreditPack,
  options: { yearlyAsMonthly: boolean },
): { amount: number; unit: string; anchor: number | null; note: string | null } => {
  if (pack.billing === 'one_time')
    return { amount: pack.price, unit: 'one-time', anchor: pack.anchorPrice, note: pack.note ?? null };
  if (pack.billing === 'year' && options.yearlyAsMonthly) {
    // A yearly pack of the pricing page: per month, against the monthly price of the same pack.
    return {
      amount: Math.round((pack.price / 12) * 100) / 100,
      unit: '/month',
      anchor: pack.anchorPrice ? Math.round((pack.anchorPrice / 12) * 100) / 100 : null,
      note: `Billed yearly (${formatPriceText(pack.price)})`,
    };
  }
  if (pack.billing === 'year')
    return { amount: pack.price, unit: '/year', anchor: pack.anchorPrice, note: pack.note ?? null };
  return { amount: pack.price, unit: '/month', anchor: pack.anchorPrice, note: pack.note ?? null };
};

const formatPriceText = (value: number) =>
  value > 100
    ? `$${Math.round(value).toLocaleString('en-US')}`
    : Number.isInteger(value)
      ? `$${value}`
      : `$${value.toFixed(2)}`;
