import type { TCapabilities } from './capabilities';

export type TPlanChangeType = 'none' | 'upgrade' | 'downgrade' | 'switch';

export interface PlanPosition {
  planCode: string;
  tierCode: string;
  creditLimit: number;
}

/** Spec billing-accounts 4, Plan change type: decided by comparing credit limits. */
export const planChangeType = (current: PlanPosition | null | undefined, target: PlanPosition): TPlanChangeType => {
  if (!current || current.planCode === 'free') return 'upgrade';
  if (current.planCode === target.planCode && current.tierCode === target.tierCode) return 'none';
  if (target.creditLimit > current.creditLimit) return 'upgrade';
  if (target.creditLimit < current.creditLimit) return 'downgrade';
  return 'switch';
};

export const PLAN_ALREADY_ACTIVE = 'This plan is already active.';
export const MISSING_PRICE_ID = 'Invalid plan selection - missing price ID. Please try again.';

const limitText = (value: number | null) => (value === null ? 'unlimited' : value.toLocaleString('en-US'));

const LIMIT_NAMES: Record<keyof TCapabilities['limits'], string> = {
  subaccounts: 'Sub-accounts',
  connections_per_type: 'Connections per type',
  agents_per_subaccount: 'Agents per sub-account',
};
const FEATURE_NAMES: Record<keyof TCapabilities['features'], string> = {
  marketplace: 'Marketplace access',
  whitelabel_subaccounts: 'White-label sub-accounts',
  whitelabel_branding: 'White-label branding',
  priority_support: 'Priority support',
};
const DEMO_NAMES: Record<keyof TCapabilities['demos'], string> = {
  basic: 'Basic demos',
  advanced: 'Advanced demos',
  whitelabel: 'White-label demos',
};

const lower = (from: number | null, to: number | null) => (from === null ? to !== null : to !== null && to < from);

/** What a downgrade loses: lower monthly credits, lower or no limits, removed features and demos. */
export const downgradeLosses = (
  current: { creditLimit: number; capabilities: TCapabilities },
  target: { creditLimit: number; capabilities: TCapabilities },
): string[] => {
  const losses: string[] = [];
  if (target.creditLimit < current.creditLimit) {
    losses.push(
      `Monthly credits drop from ${current.creditLimit.toLocaleString('en-US')} to ${target.creditLimit.toLocaleString('en-US')}`,
    );
  }
  for (const key of Object.keys(LIMIT_NAMES) as (keyof TCapabilities['limits'])[]) {
    const from = current.capabilities.limits[key];
    const to = target.capabilities.limits[key];
    if (lower(from, to)) losses.push(`${LIMIT_NAMES[key]}: ${limitText(from)} → ${limitText(to)}`);
  }
  for (const key of Object.keys(FEATURE_NAMES) as (keyof TCapabilities['features'])[]) {
    if (current.capabilities.features[key] && !target.capabilities.features[key])
      losses.push(`${FEATURE_NAMES[key]} removed`);
  }
  for (const key of Object.keys(DEMO_NAMES) as (keyof TCapabilities['demos'])[]) {
    if (current.capabilities.demos[key] && !target.capabilities.demos[key]) losses.push(`${DEMO_NAMES[key]} removed`);
  }
  return losses;
};

/** Warning when current usage already exceeds the new tier's credit limit. */
export const overUsageWarning = (usageUsed: number, targetLimit: number): string | null =>
  usageUsed > targetLimit
    ? `You have used ${Math.round(usageUsed).toLocaleString('en-US')} credits this period, more than the ${targetLimit.toLocaleString('en-US')} credits of the new plan.`
    : null;
