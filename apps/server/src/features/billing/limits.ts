/**
 * Plan limits, enforced on the server. A feature above billing calls assertWithinLimit before it
 * creates a connection or an agent, with its own count of them (inside its transaction, passed as
 * context.tx, so two concurrent creations cannot both pass); a new sub-account (tenancy, below
 * billing) is checked by the reaction to `subaccount.created`, in the transaction that creates it.
 * assertFeature / assertDemoTier gate features.
 */
import type { TCapabilities } from '@switchboard/core';
import { and, count, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { defineReaction } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { subaccounts } from '../tenancy/schema';
import { currentPlan } from './account';
import { lockAccount } from './ledger-repo';

export type LimitKind = 'subaccounts' | 'connections' | 'agents';

export interface LimitContext {
  /** The transaction the creation runs in; the account row is locked in it until commit. */
  tx?: Tx;
  /**
   * How many the limit already counts (agents of the sub-account, connections of the type, active
   * sub-accounts), read by the feature that owns them after the account row is locked.
   */
  count: (db: Db | Tx) => Promise<number>;
}

const upgradeNeeded = (message: string) =>
  new AppError('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED', message, { reason: 'plan_limit' });

const plural = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;

/** The capabilities of the account's current plan. */
export const planCapabilities = async (deps: Deps, accountId: string, tx?: Tx): Promise<TCapabilities> => {
  const run = async (inner: Tx) => currentPlan(deps, await lockAccount(inner, accountId, deps.env.FREE_PLAN_CREDITS));
  const plan = tx ? await run(tx) : await deps.db.transaction(run);
  return plan.capabilities;
};

/** Throws 403 BILLING_ACTIVE_SUBSCRIPTION_REQUIRED when one more would pass the plan's limit. */
export async function assertWithinLimit(
  deps: Deps,
  accountId: string,
  kind: LimitKind,
  context: LimitContext,
): Promise<void> {
  const check = async (tx: Tx) => {
    const capabilities = await planCapabilities(deps, accountId, tx);
    const limit =
      kind === 'subaccounts'
        ? capabilities.limits.subaccounts
        : kind === 'agents'
          ? capabilities.limits.agents_per_subaccount
          : capabilities.limits.connections_per_type;
    if (limit === null) return;
    const used = await context.count(tx);
    if (used < limit) return;
    if (kind === 'subaccounts') {
      throw upgradeNeeded(
        `Your plan allows ${plural(limit, 'active sub-account', 'active sub-accounts')}. Upgrade your plan to add more.`,
      );
    }
    if (kind === 'agents') {
      throw upgradeNeeded(
        `Your plan allows ${plural(limit, 'agent', 'agents')} per sub-account. Upgrade your plan to add more.`,
      );
    }
    throw upgradeNeeded(
      `Your plan allows ${plural(limit, 'connection', 'connections')} of each type. Upgrade your plan to add more.`,
    );
  };
  if (context.tx) await check(context.tx);
  else await deps.db.transaction(check);
}

/**
 * A sub-account one over the plan's limit of active ones is refused: the reaction throws inside the
 * transaction that created it, which rolls back.
 */
export const subaccountWithinPlan = defineReaction({
  event: 'subaccount.created',
  name: 'billing.subaccount-limit',
  runs: 'with-change',
  handle: (deps, created, tx) =>
    assertWithinLimit(deps, created.accountId, 'subaccounts', {
      tx,
      count: async (db) => {
        const [row] = await db
          .select({ n: count() })
          .from(subaccounts)
          .where(
            and(
              eq(subaccounts.accountId, created.accountId),
              eq(subaccounts.locked, false),
              ne(subaccounts.id, created.subaccountId),
            ),
          );
        return row?.n ?? 0;
      },
    }),
});

const FEATURE_LABELS: Record<keyof TCapabilities['features'], string> = {
  marketplace: 'The marketplace',
  whitelabel_subaccounts: 'White-label sub-accounts',
  whitelabel_branding: 'White-label branding',
  priority_support: 'Priority support',
};

/** Throws 403 when the plan lacks a feature (marketplace, white-label, priority support). */
export async function assertFeature(
  deps: Deps,
  accountId: string,
  feature: keyof TCapabilities['features'],
): Promise<void> {
  const capabilities = await planCapabilities(deps, accountId);
  if (!capabilities.features[feature])
    throw upgradeNeeded(`${FEATURE_LABELS[feature]} needs a higher plan. Upgrade your plan to use it.`);
}

/** Throws 403 when the plan's demo tier does not include the requested kind of demo. */
export async function assertDemoTier(deps: Deps, accountId: string, tier: keyof TCapabilities['demos']): Promise<void> {
  const capabilities = await planCapabilities(deps, accountId);
  if (!capabilities.demos[tier]) {
    const name = tier === 'whitelabel' ? 'White-label demos' : tier === 'advanced' ? 'Advanced demos' : 'Demos';
    throw upgradeNeeded(`${name} need a higher plan. Upgrade your plan to use them.`);
  }
}
