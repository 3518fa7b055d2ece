/**
 * When the plan allows fewer active sub-accounts than the account has (after a change to Starter or
 * the free plan), the owner picks the one(s) to keep active; the others are locked, never deleted.
 * A higher plan unlocks them again.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { agents } from '../agents/schema';
import { subaccounts } from '../tenancy/schema';
import { planCapabilities } from './limits';

export const subaccountSelection = async (deps: Deps, accountId: string) => {
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
    const room = limit === null ? locked.length : limit - active;
    const unlock = locked.slice(0, room).map((row) => row.id);
    await deps.db.update(subaccounts).set({ locked: false }).where(inArray(subaccounts.id, unlock));
    for (const row of rows) if (unlock.includes(row.id)) row.locked = false;
  }
  const counts = rows.length
    ? await deps.db
        .select({ id: agents.subaccountId, n: count() })
        .from(agents)
        .where(
          inArray(
            agents.subaccountId,
            rows.map((row) => row.id),
          ),
        )
        .groupBy(agents.subaccountId)
    : [];
  const activeNow = rows.filter((row) => !row.locked).length;
  return {
    needsSelection: limit !== null && activeNow > limit,
    limit,
    subaccounts: rows.map((row) => ({
      id: row.id,
      name: row.name,
      logoUrl: row.logoUrl,
      locked: row.locked,
      agentCount: counts.find((item) => item.id === row.id)?.n ?? 0,
      createdAt: row.createdAt.toISOString(),
    })),
  };
};

/** Keeps the chosen sub-account active and locks the others beyond the plan's limit. */
export const selectActiveSubaccount = async (deps: Deps, accountId: string, subaccountId: string) => {
  const limit = (await planCapabilities(deps, accountId)).limits.subaccounts;
  await deps.db.transaction(async (tx) => {
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
  });
  return subaccountSelection(deps, accountId);
};
