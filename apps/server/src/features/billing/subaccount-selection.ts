/**
 * When the plan allows fewer active sub-accounts than the account has (after a change to Starter or
 * the free plan), the owner picks the one(s) to keep active; the others are locked, never deleted.
 * A higher plan unlocks them again.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { subaccounts } from '../tenancy/schema';
import type { AgentDirectory } from './agent-directory';
import { publishLockChange } from './channel-gate';
import { planCapabilities } from './limits';
import { billingAccounts } from './schema';

/**
 * Applies a plan's sub-account limit at once, in the plan change's transaction: beyond the limit
 * the newest active sub-accounts are locked (the owner may then choose another one to keep, in
 * 'Select Your Active Subaccount'); with room again, locked ones are unlocked, oldest first.
 * Answers the ids whose lock changed (for publishLockChange after commit).
 */
export const enforceSubaccountLimit = async (tx: Tx, accountId: string, limit: number | null): Promise<string[]> => {
  const rows = await tx
    .select({ id: subaccounts.id, locked: subaccounts.locked })
    .from(subaccounts)
    .where(eq(subaccounts.accountId, accountId))
    .orderBy(asc(subaccounts.createdAt), asc(subaccounts.id))
    .for('update');
  const active = rows.filter((row) => !row.locked);
  const locked = rows.filter((row) => row.locked);
  if (limit !== null && active.length > limit) {
    const lock = active.slice(limit).map((row) => row.id);
    await tx.update(subaccounts).set({ locked: true }).where(inArray(subaccounts.id, lock));
    await tx
      .update(billingAccounts)
      .set({ subaccountChoicePending: true })
      .where(eq(billingAccounts.accountId, accountId));
    return lock;
  }
  const room = limit === null ? locked.length : Math.max(0, limit - active.length);
  const unlock = locked.slice(0, room).map((row) => row.id);
  if (unlock.length) await tx.update(subaccounts).set({ locked: false }).where(inArray(subaccounts.id, unlock));
  if (unlock.length === locked.length && locked.length > 0) {
    await tx
      .update(billingAccounts)
      .set({ subaccountChoicePending: false })
      .where(eq(billingAccounts.accountId, accountId));
  }
  return unlock;
};

export const subaccountSelection = async (deps: Deps, accountId: string, agents: AgentDirectory) => {
  const limit = (await planCapabilities(deps, accountId)).limits.subaccounts;
  const rows = await deps.db
    .select({
      id: subaccounts.id,
      name: subaccounts.name,
      logoUrl: subaccounts.logoUrl,
      locked: subaccounts.locked,
      createdAt: subaccounts.createdAt,
    })
    .from(subaccounts)
    .where(eq(subaccounts.accountId, accountId))
    .orderBy(asc(subaccounts.createdAt));
  const locked = rows.filter((row) => row.locked);
  const active = rows.length - locked.length;
  if (locked.length > 0 && (limit === null || active < limit)) {
    const changed = await deps.db.transaction((tx) => enforceSubaccountLimit(tx, accountId, limit));
    for (const id of changed) publishLockChange(deps, id);
    for (const row of rows) if (changed.includes(row.id)) row.locked = false;
  }
  const [billing] = await deps.db
    .select({ pending: billingAccounts.subaccountChoicePending })
    .from(billingAccounts)
    .where(eq(billingAccounts.accountId, accountId));
  const counts = await agents.countsIn(
    deps.db,
    rows.map((row) => row.id),
  );
  const activeNow = rows.filter((row) => !row.locked).length;
  return {
    needsSelection:
      limit !== null && (activeNow > limit || (Boolean(billing?.pending) && rows.some((row) => row.locked))),
    limit,
    subaccounts: rows.map((row) => ({
      id: row.id,
      name: row.name,
      logoUrl: row.logoUrl,
      locked: row.locked,
      agentCount: counts.get(row.id) ?? 0,
      createdAt: row.createdAt.toISOString(),
    })),
  };
};

/** Keeps the chosen sub-account active and locks the others beyond the plan's limit. */
export const selectActiveSubaccount = async (
  deps: Deps,
  accountId: string,
  subaccountId: string,
  agents: AgentDirectory,
) => {
  await deps.db.transaction(async (tx) => {
    // The account lock first, then the sub-accounts: the order every billing write takes, so a
    // debit or plan change running at the same time waits instead of deadlocking.
    const limit = (await planCapabilities(deps, accountId, tx)).limits.subaccounts;
    const rows = await tx
      .select({ id: subaccounts.id })
      .from(subaccounts)
      .where(eq(subaccounts.accountId, accountId))
      .orderBy(asc(subaccounts.createdAt))
      .for('update');
    if (!rows.some((row) => row.id === subaccountId)) {
      throw new AppError('NOT_FOUND', 'Sub-account not found', { field: 'subaccountId' });
    }
    const keep = [subaccountId, ...rows.map((row) => row.id).filter((id) => id !== subaccountId)].slice(
      0,
      limit ?? rows.length,
    );
    await tx.update(subaccounts).set({ locked: false }).where(inArray(subaccounts.id, keep));
    const lock = rows.map((row) => row.id).filter((id) => !keep.includes(id));
    if (lock.length) {
      await tx
        .update(subaccounts)
        .set({ locked: true })
        .where(and(eq(subaccounts.accountId, accountId), inArray(subaccounts.id, lock)));
    }
    await tx
      .update(billingAccounts)
      .set({ subaccountChoicePending: false })
      .where(eq(billingAccounts.accountId, accountId));
  });
  for (const row of await deps.db
    .select({ id: subaccounts.id })
    .from(subaccounts)
    .where(eq(subaccounts.accountId, accountId)))
    publishLockChange(deps, row.id);
  return subaccountSelection(deps, accountId, agents);
};
