import { ALL_TIERS, FREE_TIER, type TCapabilities, type TUsageBalance } from '@switchboard/core';

/** The account's current plan as the plan modal compares it, from the usage balance. */
export const currentPosition = (balance: TUsageBalance | null | undefined) => {
  const tier = balance
    ? ALL_TIERS.find((item) => item.plan_code === balance.planCode && item.tier_code === balance.tierCode)
    : undefined;
  return {
    planCode: balance?.planCode ?? 'free',
    tierCode: balance?.tierCode ?? 'free',
    creditLimit: balance?.configuredLimit ?? 0,
    displayName: tier?.display_name ?? FREE_TIER.display_name,
    capabilities: (tier?.capabilities ?? FREE_TIER.capabilities) as TCapabilities,
    priceId: tier?.price_id ?? null,
  };
};
