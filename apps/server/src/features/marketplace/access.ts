/**
 * Who may do what on the marketplace, in one place. Every signed-in user may browse and post a
 * business request (a business looking for an agency needs no plan); posting an agency offer and
 * answering a project need the plan's marketplace capability (Growth and above).
 */
import type { TMarketplaceType } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { assertFeature, planCapabilities } from '../billing/limits';

export const canTrade = async (deps: Deps, accountId: string): Promise<boolean> =>
  (await planCapabilities(deps, accountId)).features.marketplace;

/** Throws 403 BILLING_ACTIVE_SUBSCRIPTION_REQUIRED when the action needs the marketplace capability. */
export const assertMarketplaceAction = async (
  deps: Deps,
  accountId: string,
  action: { kind: 'post'; marketplaceType: TMarketplaceType } | { kind: 'respond' },
): Promise<void> => {
  if (action.kind === 'post' && action.marketplaceType === 'business') return;
  await assertFeature(deps, accountId, 'marketplace');
};
