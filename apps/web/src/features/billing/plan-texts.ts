/** What the Billing section says of the current plan's price and renewal. */
import { formatMinor, type TBillingOverview } from '@switchboard/core';

export const priceText = (plan: TBillingOverview['plan']): string => {
  if (plan.status === 'complimentary') return 'Complimentary (no charge)';
  return plan.amount > 0 && plan.interval ? `${formatMinor(plan.amount)} / ${plan.interval}` : 'No charge';
};

/** The renewal line when the plan neither renews on a date nor is cancelled. */
export const noRenewalText = (plan: TBillingOverview['plan']): string =>
  plan.status === 'complimentary'
    ? `${plan.displayName} is complimentary: it does not renew and nothing is charged.`
    : 'The free plan does not renew.';
