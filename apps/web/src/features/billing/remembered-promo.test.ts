import { describe, expect, it } from 'vitest';
import { forgetsRememberedPromo, promoFields } from './remembered-promo';

describe('a promo code remembered from a link', () => {
  it('is sent as remembered, never as the code the page chose, so the server can leave it out', () => {
    expect(promoFields({}, 'FIRSTMONTH69')).toEqual({ rememberedPromoCode: 'FIRSTMONTH69' });
    expect(promoFields({ couponId: null, promoCode: null }, 'FIRSTMONTH69')).toEqual({
      rememberedPromoCode: 'FIRSTMONTH69',
    });
    expect(promoFields({}, null)).toEqual({});
  });

  it('gives way to a code or coupon the page chose', () => {
    expect(promoFields({ promoCode: 'TWOMONTHS75' }, 'FIRSTMONTH69')).toEqual({
      promoCode: 'TWOMONTHS75',
      couponId: undefined,
    });
    expect(promoFields({ couponId: 'sb_coupon_two_months_75' }, 'FIRSTMONTH69')).toEqual({
      couponId: 'sb_coupon_two_months_75',
      promoCode: undefined,
    });
  });

  it('is forgotten only by a checkout that applied it (a pack or another plan keeps it)', () => {
    expect(forgetsRememberedPromo({}, { promoCodeApplied: false }, 'FIRSTMONTH69')).toBe(false);
    expect(forgetsRememberedPromo({}, {}, 'FIRSTMONTH69')).toBe(false);
    expect(forgetsRememberedPromo({}, { promoCodeApplied: true }, 'FIRSTMONTH69')).toBe(true);
    expect(forgetsRememberedPromo({ promoCode: 'firstmonth69' }, { promoCodeApplied: true }, 'FIRSTMONTH69')).toBe(
      true,
    );
    expect(forgetsRememberedPromo({ promoCode: 'TWOMONTHS75' }, { promoCodeApplied: true }, 'FIRSTMONTH69')).toBe(
      false,
    );
  });
});
