import { describe, expect, it } from 'vitest';
import { noRenewalText, priceText } from './plan-texts';

const plan = (status: string, amount = 0, interval: 'month' | 'year' | null = null) => ({
  displayName: status === 'free' ? 'Free' : 'Growth 3,000 credits',
  planCode: status === 'free' ? 'free' : 'growth_monthly',
  status,
  priceId: null,
  amount,
  interval,
});

describe('the plan lines of the Billing section', () => {
  it('a complimentary plan is not called the free plan', () => {
    expect(priceText(plan('complimentary'))).toBe('Complimentary (no charge)');
    expect(noRenewalText(plan('complimentary'))).toBe(
      'Growth 3,000 credits is complimentary: it does not renew and nothing is charged.',
    );
    expect(noRenewalText(plan('complimentary'))).not.toMatch(/free plan/);
  });

  it('a paid plan shows its price, the free plan no charge', () => {
    expect(priceText(plan('active', 7900, 'month'))).toBe('$79.00 / month');
    expect(priceText(plan('free'))).toBe('No charge');
    expect(noRenewalText(plan('free'))).toBe('The free plan does not renew.');
  });
});
