import { describe, expect, it } from 'vitest';
import { ALL_TIERS, catalogByFamily, findTier } from './catalog';
import { alertToSend, CREDIT_PACK_TIERS, creditPackOffers, crossedThresholds } from './credit-packs';
import { pricePerCredit } from './format';
import { buildPricingPlans, cardPrice, creditsPerPayment, type TCreditPack, type TPricingVariant } from './pricing';
import { DISCOUNT_MULTIPLIERS, discountMultiplier, findPromotion, PROMOTIONS, promotionalPrice } from './promotions';

/** Spec billing-accounts section 9, point by point: what a card shows is what is charged and granted. */
const catalog = catalogByFamily();
const options = { salesUrl: 'https://sales.example' };
const VARIANTS: TPricingVariant[] = ['default', 'secret', 'secretModal', 'promotional', 'discount'];
const packsOf = (variant: TPricingVariant, promoCode?: string) =>
  buildPricingPlans(catalog, variant, { ...options, promoCode }).flatMap((plan) =>
    [plan.monthly, plan.yearly].flatMap((variantData) => variantData?.creditPacks ?? []),
  );

describe('section 9 prices', () => {
  it('maps every yearly price, in order, to the monthly packs of its family', () => {
    const table: Record<string, { monthly: number[]; yearly: number[]; credits: number[] }> = {
      starter: { monthly: [25, 35, 45, 55], yearly: [180, 252, 324, 396], credits: [500, 1000, 1500, 2000] },
      growth: {
        monthly: [79, 109, 149, 199],
        yearly: [568.8, 784.8, 1072.8, 1432.8],
        credits: [3000, 4500, 6500, 9000],
      },
      scale: {
        monthly: [297, 497, 797, 1297, 1997],
        yearly: [2138.4, 3578.4, 5738.4, 9338.4, 14378.4],
        credits: [10000, 20000, 35000, 60000, 100000],
      },
    };
    for (const [family, row] of Object.entries(table)) {
      row.credits.forEach((credits, index) => {
        expect(findTier(`sb_${family}_month_${credits}`)?.price).toBe(row.monthly[index]);
        expect(findTier(`sb_${family}_year_${credits}`)?.price).toBe(row.yearly[index]);
      });
    }
  });

  it('yearly cards show 12x the monthly credits and the price per credit of what is paid', () => {
    for (const plan of buildPricingPlans(catalog, 'default', options)) {
      for (const pack of plan.yearly?.creditPacks ?? []) {
        const tier = findTier(pack.stripePriceId) ?? ALL_TIERS.find((item) => item.tier_code === pack.tierCode);
        expect(pack.credits, pack.tierCode).toBe((tier?.credit_limit ?? 0) * 12);
        expect(pack.pricePerCredit, pack.tierCode).toBe(pricePerCredit(pack.price, pack.credits));
        expect(cardPrice(pack, { yearlyAsMonthly: true }).note).toMatch(/^Billed yearly \(\$[\d,.]+\)$/);
      }
    }
    const growthYear = packsOf('default').find((pack) => pack.stripePriceId === 'sb_growth_year_3000') as TCreditPack;
    expect(growthYear).toMatchObject({ credits: 36000, price: 568.8, pricePerCredit: 0.0158 });
  });

  it('anchors compare like with like: a month with a month, a year with a year', () => {
    for (const pack of packsOf('default')) {
      const shown = cardPrice(pack, { yearlyAsMonthly: pack.billing === 'year' });
      if (pack.billing === 'month') expect(shown.anchor, pack.tierCode).toBeNull();
      if (pack.billing === 'year') {
        // The yearly pack per month against the same pack paid monthly.
        const monthly = findTier(pack.stripePriceId?.replace('_year_', '_month_'))?.price;
        expect(shown.unit).toBe('/month');
        expect(shown.anchor, pack.tierCode).toBe(monthly);
        expect(shown.amount).toBe(Math.round((pack.price / 12) * 100) / 100);
      }
    }
    // The annual badge: -40% is what every yearly Starter, Growth and Scale pack saves.
    for (const pack of packsOf('default').filter(
      (item) => item.billing === 'year' && !item.tierCode.includes('legacy'),
    )) {
      if (pack.tierCode.startsWith('entrepreneurs')) continue;
      expect(pack.savings, pack.tierCode).toBe('Save 40%');
    }
  });

  it('one-time and one-year offers never say /month, on any page', () => {
    for (const variant of VARIANTS) {
      for (const pack of packsOf(variant, 'FIRSTMONTH69')) {
        const shown = cardPrice(pack, { yearlyAsMonthly: false });
        if (pack.billing === 'one_time') expect(shown.unit).toBe('one-time');
        if (pack.billing === 'year') expect(shown.unit).toBe('/year');
      }
    }
    const [, zoom, lifetime] = buildPricingPlans(catalog, 'secret', options).map(
      (plan) => plan.monthly?.creditPacks[0] as TCreditPack,
    );
    expect(cardPrice(zoom as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 997,
      unit: '/year',
      anchor: 2000,
    });
    // The one-year offer grants twelve months of credits per yearly invoice, and says so.
    expect(zoom).toMatchObject({ credits: 36000, billing: 'year', pricePerCredit: pricePerCredit(997, 36000) });
    expect(creditsPerPayment(findTier('sb_secret_zoom_coaching') as never)).toBe(36000);
    expect(cardPrice(lifetime as TCreditPack, { yearlyAsMonthly: false })).toEqual({
      amount: 7000,
      unit: 'one-time',
      anchor: 30000,
      note: '25% off the $9,333.33 list price',
    });
  });

  it('every card shows the price that is charged (the catalog price, or the promotion the server applies)', () => {
    for (const variant of ['default', 'secret', 'secretModal', 'discount'] as const) {
      for (const pack of packsOf(variant)) expect(pack.price, pack.tierCode).toBe(findTier(pack.stripePriceId)?.price);
    }
    for (const [code, promotion] of Object.entries(PROMOTIONS)) {
      const [pack] = packsOf('promotional', code);
      expect(pack?.price).toBe(promotionalPrice(findTier(pack?.stripePriceId)?.price ?? 0, promotion));
      expect(pack?.price).toBe(promotion.displayPrice);
      expect(pack?.anchorPrice).toBe(promotion.originalPrice);
      expect(pack?.pricePerCredit).toBe(pricePerCredit(promotion.displayPrice, 3000));
    }
  });

  it('promo prices: 69% off the first month shows 24.49, 75% off for 2 months 19.75, with what follows', () => {
    const [first] = packsOf('promotional', 'FIRSTMONTH69');
    expect(cardPrice(first as TCreditPack, { yearlyAsMonthly: false })).toEqual({
      amount: 24.49,
      unit: '/month',
      anchor: 79,
      note: 'First month, then $79 /month',
    });
    const [two] = packsOf('promotional', 'twomonths75');
    expect(cardPrice(two as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 19.75,
      note: 'First 2 months, then $79 /month',
    });
    expect(PROMOTIONS.TWOMONTHS75?.automatic).toBe(true);
  });

  it('unknown promo codes (and names of object properties) show the default page', () => {
    const defaults = buildPricingPlans(catalog, 'default', options).map((plan) => plan.name);
    for (const code of ['MADEUP', '', 'constructor', '__proto__', 'toString', ' FIRSTMONTH70 ']) {
      expect(findPromotion(code)).toBeUndefined();
      expect(
        buildPricingPlans(catalog, 'promotional', { ...options, promoCode: code }).map((plan) => plan.name),
      ).toEqual(defaults);
    }
    expect(findPromotion(' firstmonth69 ')).toBe(PROMOTIONS.FIRSTMONTH69);
  });

  it('the 0.79 and 0.75 display multipliers', () => {
    expect(DISCOUNT_MULTIPLIERS).toEqual({ starterSecret: 0.79, starter: 0.75, lifetime: 0.75 });
    expect(discountMultiplier({ family: 'starter' }, { secret: true })).toBe(0.79);
    expect(discountMultiplier({ family: 'starter' }, { secret: false })).toBe(0.75);
    expect(discountMultiplier({ family: 'entrepreneurs', lifetime: true }, { secret: true })).toBe(0.75);
    expect(discountMultiplier({ family: 'growth' }, { secret: false })).toBe(1);
    // The secret-page Starter: 25 at 0.79 is 19.75 (21% off), the price charged, with 1,000 bonus credits.
    const [starter] = buildPricingPlans(catalog, 'secret', options);
    expect(starter?.monthly?.creditPacks[0]).toMatchObject({
      price: 19.75,
      anchorPrice: 25,
      label: '500 credits + 1,000 bonus credits',
    });
    expect(starter?.highlight).toBe('21% off');
    expect(findTier('sb_secret_secret_starter')?.price).toBe(19.75);
    // The lifetime plan: the 9,333.33 list price at 0.75 is 7,000, the price charged.
    expect(findTier('sb_secret_mentoring_lifetime')).toMatchObject({ price: 7000, mode: 'payment' });
  });

  it('the discount page: every Starter pack at 0.75 against its regular price, with the FOREVER bonus', () => {
    const plans = buildPricingPlans(catalog, 'discount', options);
    expect(plans.map((plan) => [plan.name, plan.isFeatured, plan.yearly])).toEqual([
      ['Starter', true, null],
      ['Growth', false, null],
      ['Scale', false, null],
    ]);
    const [starter, growth] = plans;
    expect(starter?.highlight).toBe('25% off');
    expect(starter?.highlightedBenefits).toEqual(['1,000 bonus credits FOREVER']);
    expect(
      starter?.monthly?.creditPacks.map((pack) => [pack.price, pack.anchorPrice, pack.stripePriceId, pack.label]),
    ).toEqual([
      [18.75, 25, 'sb_discount_starter_500', '500 credits + 1,000 bonus credits'],
      [26.25, 35, 'sb_discount_starter_1000', '1,000 credits + 1,000 bonus credits'],
      [33.75, 45, 'sb_discount_starter_1500', '1,500 credits + 1,000 bonus credits'],
      [41.25, 55, 'sb_discount_starter_2000', '2,000 credits + 1,000 bonus credits'],
    ]);
    expect(cardPrice(starter?.monthly?.creditPacks[0] as TCreditPack, { yearlyAsMonthly: false })).toMatchObject({
      amount: 18.75,
      unit: '/month',
      anchor: 25,
    });
    // Only Starter is discounted: Growth is at its regular price.
    expect(growth?.monthly?.creditPacks[0]).toMatchObject({ price: 79, stripePriceId: 'sb_growth_month_3000' });
    expect(findTier('sb_discount_starter_500')).toMatchObject({ plan_family: 'starter', interval: 'month' });
  });

  it('legacy yearly plans show 15.00 and 38.50 a month', () => {
    const plans = buildPricingPlans(catalog, 'default', options);
    const legacy = plans.filter((plan) => plan.legacy).map((plan) => plan.yearly?.creditPacks[0] as TCreditPack);
    expect(legacy.map((pack) => cardPrice(pack, { yearlyAsMonthly: true }).amount)).toEqual([15, 38.5]);
    expect(legacy.map((pack) => cardPrice(pack, { yearlyAsMonthly: true }).anchor)).toEqual([25, 79]);
  });
});

describe('credit packs and low-balance alerts', () => {
  it('one-time packs cost at least the Starter price per credit and are never shown per month', () => {
    const starterPerCredit = 25 / 500;
    for (const offer of creditPackOffers()) {
      expect(offer.price / offer.credits).toBeGreaterThanOrEqual(starterPerCredit - 0.01);
      expect(offer.pricePerCredit).toBe(pricePerCredit(offer.price, offer.credits));
    }
    expect(CREDIT_PACK_TIERS.every((tier) => tier.mode === 'payment')).toBe(true);
    expect(Object.keys(catalog)).not.toContain('credit_pack');
  });

  it('alerts the lowest crossed threshold once per period', () => {
    expect(crossedThresholds(18, 100, [5, 20])).toEqual([20]);
    expect(crossedThresholds(4, 100, [5, 20])).toEqual([20, 5]);
    expect(alertToSend(50, 100, [20, 5], null)).toBeNull();
    expect(alertToSend(18, 100, [20, 5], null)).toBe(20);
    expect(alertToSend(15, 100, [20, 5], 20)).toBeNull();
    expect(alertToSend(4, 100, [20, 5], 20)).toBe(5);
    expect(alertToSend(4, 100, [20, 5], null)).toBe(5);
    expect(alertToSend(1, 100, [20, 5], 5)).toBeNull();
    expect(alertToSend(0, 0, [20], null)).toBeNull();
  });
});
