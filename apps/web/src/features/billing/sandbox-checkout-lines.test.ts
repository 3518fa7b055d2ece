import { describe, expect, it } from 'vitest';
import { sandboxCheckoutLines } from './sandbox-checkout-lines';

describe('the sandbox checkout page', () => {
  it('shows the amount due today under a promotion, and the price it renews at', () => {
    const lines = sandboxCheckoutLines({
      mode: 'subscription',
      priceId: 'sb_growth_month_3000',
      couponId: 'sb_coupon_first_month_69',
    });
    expect(lines.find((line) => line.label === 'Due today')?.value).toBe('$24.49');
    expect(lines.find((line) => line.label === 'Promotion')?.value).toBe(
      '69% Off First Month: First month, then $79 /month',
    );
  });

  it('says two months for TWOMONTHS75, the catalog price without a promotion, once for a pack', () => {
    const two = sandboxCheckoutLines({
      mode: 'subscription',
      priceId: 'sb_growth_month_3000',
      couponId: 'sb_coupon_two_months_75',
    });
    expect(two.find((line) => line.label === 'Due today')?.value).toBe('$19.75');
    expect(two.find((line) => line.label === 'Promotion')?.value).toMatch(/First 2 months, then \$79 \/month/);
    const plain = sandboxCheckoutLines({ mode: 'subscription', priceId: 'sb_growth_month_3000', couponId: null });
    expect(plain.slice(1)).toEqual([
      { label: 'Due today', value: '$79.00' },
      { label: 'Then', value: '$79.00 / month' },
    ]);
    const pack = sandboxCheckoutLines({ mode: 'payment', priceId: 'sb_pack_500', couponId: null });
    expect(pack.find((line) => line.label === 'Due today')?.value).toBe('$25.00 once');
  });
});
