/**
 * Plan limits, enforced on the server. Other features call assertWithinLimit before creating a
 * sub-account, connection or agent (inside their transaction, passed as context.tx, so two
 * concurrent creations cannot both pass), and assertFeature / assertDemoTier for gated features.
 */
import type { TCapabilities } from '@switchboard/core';
import { and, count, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { agents } from '../agents/schema';
import { connections } from '../connections/schema';
import { subaccounts } from '../tenancy/schema';
import { currentPlan } from './account';
import { lockAccount } from './ledger-repo';

export type LimitKind = 'subaccounts' | 'connections' | 'agents';

export interface LimitContext {
  /** The transaction the creation runs in; the account row is locked in it until commit. */
  tx?: Tx;
  /** Sub-account the agent or connection is created in. */
  subaccountId?: string;
  /** Connection type (e.g. 'website-widget'). */
  connectionType?: string;
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

const countRows = async (db: Db | Tx, kind: LimitKind, accountId: string, context: LimitContext) => {
  if (kind === 'subaccounts') {
    const [row] = await db
      .select({ n: count() })
      .from(subaccounts)
      .where(and(eq(subaccounts.accountId, accountId), eq(subaccounts.locked, false)));
    return row?.n ?? 0;
  }
  if (!context.subaccountId)
    throw new AppError('VALIDATION_ERROR', 'A sub-account is required', { field: 'subaccountId' });
  if (kind === 'agents') {
    const [row] = await db.select({ n: count() }).from(agents).where(eq(agents.subaccountId, context.subaccountId));
    return row?.n ?? 0;
  }
  const conditions = [eq(connections.subaccountId, context.subaccountId)];
  if (context.connectionType) conditions.push(eq(connections.type, context.connectionType as 'website-widget'));
  const [row] = await db
    .select({ n: count() })
    .from(connections)
    .where(and(...conditions));
  return row?.n ?? 0;
};

/** Throws 403 BILLING_ACTIVE_SUBSCRIPTION_REQUIRED when one more would pass the plan's limit. */
export async function assertWithinLimit(
  deps: Deps,
  accountId: string,
  kind: LimitKind,
  context: LimitContext = {},
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
    const used = await countRows(tx, kind, accountId, context);
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
