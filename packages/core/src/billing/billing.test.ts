import { describe, expect, it } from 'vitest';
import { capabilitiesFor, FREE_CAPABILITIES } from './capabilities';
import { CATALOG_TIERS, catalogByFamily, findTier } from './catalog';
import { formatCreditCount, formatMinor, formatPrice, pricePerCredit, yearlyPerMonth } from './format';
import { downgradeLosses, overUsageWarning, planChangeType } from './plan-change';
import { buildPricingPlans, cardPrice, creditsLine, showsIntervalToggle, type TCreditPack } from './pricing';
import { findPromotion, PROMOTIONS, promotionAppliesTo, type TPromotion } from './promotions';
import { usageNumbers, ZRedeemRequest, ZUpgradeRequest } from './schemas';

const catalog = catalogByFamily();
const options = { salesUrl: 'https://sales.example' };

describe('plan catalog', () => {
  it('maps yearly prices in order to the monthly credit packs', () => {
    const growth = CATALOG_TIERS.filter((tier) => tier.plan_family === 'growth');
    expect(growth.filter((tier) => tier.interval === 'month').map((tier) => [tier.price, tier.credit_limit])).toEqual([
      [79, 3000],
      [109, 4500],
      [149, 6500],
      [199, 9000],
    ]);
    expect(growth.filter((tier) => tier.interval === 'year').map((tier) => [tier.price, tier.credit_limit])).toEqual([
      [568.8, 3000],
      [784.8, 4500],
      [1072.8, 6500],
      [1432.8, 9000],
    ]);
    expect(findTier('sb_scale_year_100000')).toMatchObject({ price: 14378.4, original_price: 1997 * 12 });
    expect(findTier('sb_starter_year_500')?.original_price).toBe(300);
  });

  it('gives the free plan 1 sub-account, 1 connection per type and 1 agent, basic demos only', () => {
    expect(FREE_CAPABILITIES).toEqual({
      limits: { subaccounts: 1, connections_per_type: 1, agents_per_subaccount: 1 },
      demos: { basic: true, advanced: false, whitelabel: false },
      features: {
        marketplace: false,
        whitelabel_subaccounts: false,
        whitelabel_branding: false,
        priority_support: false,
      },
    });
    expect(capabilitiesFor('unknown')).toEqual(FREE_CAPABILITIES);
    expect(capabilitiesFor('scale').limits.subaccounts).toBeNull();
  });
});

describe('pricing cards', () => {
  it('default variant: plan order, Enterprise via sales, legacy plans last, toggle shown', () => {
    const plans = buildPricingPlans(catalog, 'default', options);
    expect(plans.map((plan) => plan.name)).toEqual([
      'Starter',
      'Growth',
      'Scale',
      'Enterprise',
      'Starter Legacy',
      'For AI Entrepreneurs',
    ]);
    expect(plans[1]?.isFeatured).toBe(true);
    expect(plans[3]).toMatchObject({ buttonText: 'Talk to Sales', ctaHref: 'https://sales.example' });
    expect(showsIntervalToggle(plans, 'default')).toBe(true);
    const pack = plans[0]?.monthly?.creditPacks[1];
    expect(pack).toMatchObject({ credits: 1000, price: 35, pricePerCredit: 0.035, savings: 'Save 30%' });
  });

  it('promotional variant shows only Growth with the discount button and no toggle', () => {
    const plans = buildPricingPlans(catalog, 'promotional', { ...options, promoCode: 'firstmonth69' });
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ name: 'Growth', buttonText: 'Get 69% Off First Month', yearly: null });
    expect(showsIntervalToggle(plans, 'promotional')).toBe(false);
    // The card shows the promotional first-month price against the regular one, and names no coupon.
    expect(plans[0]?.monthly).toMatchObject({ price: 24.49, originalPrice: 79, couponId: null });
  });

  it('yearly cards show the yearly credits, the true price per credit and a like-for-like anchor', () => {
    const plans = buildPricingPlans(catalog, 'default', options);
    const starterYear = plans[0]?.yearly?.creditPacks[0];
    expect(starterYear).toMatchObject({ credits: 6000, price: 180, pricePerCredit: 0.03, billing: 'year' });
    expect(cardPrice(starterYear as TCreditPack, { yearlyAsMonthly: true })).toEqual({
      amount: 15,
      unit: '/month',
      anchor: 25,
      note: 'Billed yearly ($180)',
    });
    const growthYear = plans[1]?.yearly?.creditPacks[0] as TCreditPack;
    expect(cardPrice(growthYear, { yearlyAsMonthly: true })).toMatchObject({ amount: 47.4, anchor: 79 });
    const growthMonth = plans[1]?.monthly?.creditPacks[0] as TCreditPack;
    expect(cardPrice(growthMonth, { yearlyAsMonthly: false })).toEqual({
      amount: 79,
      unit: '/month',
      anchor: null,
      note: null,
    });
  });

  it('one-year and one-time offers never say /month; the secret Starter is 25 at 21% off', () => {
    const plans = buildPricingPlans(catalog, 'secret', options);
    const [starter, zoom, lifetime] = plans.map((plan) => plan.monthly?.creditPacks[0] as TCreditPack);
    expect(cardPrice(starter as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 19.75,
      unit: '/month',
      anchor: 25,
    });
    expect(cardPrice(zoom as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 997,
      unit: '/year',
      anchor: 2000,
    });
    expect(cardPrice(lifetime as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 7000,
      unit: 'one-time',
      anchor: 30000,
    });
    expect(plans[0]?.highlight).toBe('21% off');
  });

  it('the lifetime card says its credits come every month, priced per credit over the first year', () => {
    const plans = buildPricingPlans(catalog, 'secret', options);
    const [starter, zoom, lifetime] = plans.map((plan) => plan.monthly?.creditPacks[0] as TCreditPack);
    expect(lifetime?.label).toBe('3,000 credits every month');
    expect(creditsLine(lifetime as TCreditPack)).toBe(
      '3,000 credits every month · $0.1944 per credit over the first year',
    );
    expect(creditsLine(zoom as TCreditPack)).toBe('36,000 credits a year · $0.0277 per credit');
    expect(creditsLine(starter as TCreditPack)).toBe('500 credits · $0.0395 per credit');
  });

  it('an unknown promo code shows the default page, never another offer', () => {
    const plans = buildPricingPlans(catalog, 'promotional', { ...options, promoCode: 'MADEUP' });
    expect(plans.map((plan) => plan.name)).toEqual(
      buildPricingPlans(catalog, 'default', options).map((plan) => plan.name),
    );
    expect(plans.some((plan) => plan.highlight?.includes('Off'))).toBe(false);
  });

  it('promotions apply only to their plan family and period', () => {
    const promotion = PROMOTIONS.FIRSTMONTH69 as TPromotion;
    const growthMonth = { plan_family: 'growth', interval: 'month', mode: 'subscription' } as const;
    expect(promotionAppliesTo(promotion, growthMonth)).toBe(true);
    expect(promotionAppliesTo(promotion, { ...growthMonth, plan_family: 'scale' })).toBe(false);
    expect(promotionAppliesTo(promotion, { ...growthMonth, interval: 'year' })).toBe(false);
    expect(findPromotion('constructor')).toBeUndefined();
  });

  it('secret variant: monthly only, the Starter reads 500 credits + 1,000 bonus credits', () => {
    const plans = buildPricingPlans(catalog, 'secret', options);
    expect(plans.map((plan) => plan.name)).toEqual(['Starter', 'Zoom Coaching Call', 'Mentoring + Lifetime']);
    expect(plans[0]?.monthly?.creditPacks[0]?.label).toBe('500 credits + 1,000 bonus credits');
    expect(showsIntervalToggle(plans, 'secret')).toBe(false);
  });

  it('a tier without a provider price has no price id (Coming Soon)', () => {
    const plans = buildPricingPlans(
      catalogByFamily(() => null),
      'default',
      options,
    );
    expect(plans[0]?.monthly?.priceId).toBeNull();
  });
});

describe('display rules', () => {
  it('formats prices, credits, yearly per month and minor units', () => {
    expect(formatPrice(25)).toBe('$25');
    expect(formatPrice(24.49)).toBe('$24.49');
    expect(formatPrice(1432.8)).toBe('$1,433');
    expect(yearlyPerMonth(462)).toBe(38.5);
    expect(yearlyPerMonth(180)).toBe(15);
    expect(formatCreditCount(100000)).toBe('100,000');
    expect(formatMinor(4621)).toBe('$46.21');
    expect(formatMinor(1975, 'eur')).toBe('€19.75');
    expect(pricePerCredit(79, 3000)).toBe(0.0263);
  });

  it('derives used percentage, remaining and bonus remaining', () => {
    expect(
      usageNumbers({ totalCreditLimit: 600, usageUsed: 900, totalCreditsRemaining: 0, planCreditsRemaining: 0 }),
    ).toMatchObject({
      usedPercent: 100,
      remaining: 0,
      bonusRemaining: 0,
    });
    expect(usageNumbers({ totalCreditLimit: 600, usageUsed: 150, planCreditsRemaining: 350 })).toMatchObject({
      usedPercent: 25,
      remaining: 450,
      bonusRemaining: 100,
    });
  });
});

describe('plan change rules', () => {
  const current = { planCode: 'growth_monthly', tierCode: 'growth_3000', creditLimit: 3000 };
  it('decides none, upgrade, downgrade and switch by credit limits', () => {
    expect(planChangeType(null, current)).toBe('upgrade');
    expect(planChangeType(current, current)).toBe('none');
    expect(planChangeType(current, { planCode: 'growth_monthly', tierCode: 'growth_4500', creditLimit: 4500 })).toBe(
      'upgrade',
    );
    expect(planChangeType(current, { planCode: 'starter_monthly', tierCode: 'starter_500', creditLimit: 500 })).toBe(
      'downgrade',
    );
    expect(planChangeType(current, { planCode: 'growth_yearly', tierCode: 'growth_3000', creditLimit: 3000 })).toBe(
      'switch',
    );
  });

  it('lists what a downgrade loses and warns about over-usage', () => {
    const losses = downgradeLosses(
      { creditLimit: 3000, capabilities: capabilitiesFor('growth') },
      { creditLimit: 500, capabilities: capabilitiesFor('starter') },
    );
    expect(losses).toEqual([
      'Monthly credits drop from 3,000 to 500',
      'Sub-accounts: 5 → 1',
      'Connections per type: 10 → 3',
      'Marketplace access removed',
      'Advanced demos removed',
    ]);
    expect(overUsageWarning(800, 500)).toContain('more than the 500 credits');
    expect(overUsageWarning(100, 500)).toBeNull();
  });

  it('requires a price id and a promo code with the spec messages', () => {
    expect(ZUpgradeRequest.safeParse({ newPriceId: ' ' }).error?.issues[0]?.message).toBe(
      'Invalid plan selection - missing price ID. Please try again.',
    );
    expect(ZRedeemRequest.safeParse({ code: '  ' }).error?.issues[0]?.message).toBe('Promo code is required');
  });
});
