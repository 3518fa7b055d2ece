/**
 * Credits per client: an agency may give each sub-account a monthly credit allowance. A
 * sub-account that has used it stops spending (its model calls are refused with reason
 * allowance_reached; its public channels answer visitors the neutral message) while the agency's
 * other clients go on. Usage per sub-account and calendar month (UTC) is counted by metering in
 * subaccount_monthly_usage.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { arrayParam } from '../../db/bulk-insert';
import { type AccountView, visibleTo, wholeAccount } from '../../platform/account-scope';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { TtlCache } from '../../platform/ttl-cache';
import { subaccounts } from '../tenancy/schema';
import { creditHolds, subaccountAllowances, subaccountMonthlyUsage } from './schema';

export const monthOf = (date = new Date()) => date.toISOString().slice(0, 7);

export const ALLOWANCE_REACHED = 'This client has used its monthly credit allowance.';

/** Allowances by sub-account (null: none), kept 2 s; a change in this process drops the entry. */
const allowances = new TtlCache<number | null>(2000);

const allowanceOf = (deps: Deps, subaccountId: string) =>
  allowances.getOrLoad(subaccountId, async () => {
    const [row] = await deps.db
      .select({ credits: subaccountAllowances.monthlyCredits })
      .from(subaccountAllowances)
      .where(eq(subaccountAllowances.subaccountId, subaccountId));
    return row ? Number(row.credits) : null;
  });

/** Forgets this process's cached allowance of a sub-account (written by another feature's transaction). */
export const dropCachedAllowance = (subaccountId: string) => allowances.delete(subaccountId);

/**
 * Throws 402 (reason allowance_reached) when the sub-account's use this month, what its calls in
 * flight hold (`heldHere` in this process, plus holds in the database) and this call's estimate
 * pass its allowance. Without an allowance it costs one cached lookup.
 */
export const assertWithinAllowance = async (
  deps: Deps,
  subaccountId: string | null | undefined,
  estimate: number,
  heldHere: number,
): Promise<void> => {
  if (!subaccountId) return;
  const allowance = await allowanceOf(deps, subaccountId);
  if (allowance === null) return;
  const [row] = await deps.db
    .select({
      used: sql<string>`coalesce((select ${subaccountMonthlyUsage.credits} from ${subaccountMonthlyUsage}
        where ${subaccountMonthlyUsage.subaccountId} = ${subaccountId} and ${subaccountMonthlyUsage.month} = ${monthOf()}), 0)`,
      held: sql<string>`coalesce((select sum(${creditHolds.amount}) from ${creditHolds}
        where ${creditHolds.subaccountId} = ${subaccountId} and ${creditHolds.expiresAt} > now()), 0)`,
    })
    .from(subaccounts)
    .where(eq(subaccounts.id, subaccountId));
  const committed = Number(row?.used ?? 0) + Number(row?.held ?? 0) + heldHere;
  if (committed + estimate > allowance || committed >= allowance) {
    throw new AppError('BILLING_INSUFFICIENT_CREDITS', ALLOWANCE_REACHED, { reason: 'allowance_reached' });
  }
};

/**
 * Counts metered credits per sub-account and month: the write, as a part of metering's statement
 * (runTogether), or null when no sub-account spent anything.
 */
export const subaccountUsageWrite = (usages: { subaccountId: string | null; credits: number }[]): SQL | null => {
  const bySubaccount = new Map<string, number>();
  for (const usage of usages) {
    if (usage.subaccountId && usage.credits > 0) {
      bySubaccount.set(usage.subaccountId, (bySubaccount.get(usage.subaccountId) ?? 0) + usage.credits);
    }
  }
  if (bySubaccount.size === 0) return null;
  const counts = [...bySubaccount];
  return sql`INSERT INTO ${subaccountMonthlyUsage} (subaccount_id, month, credits)
    SELECT v.subaccount_id, ${monthOf()}, v.credits
    FROM unnest(${arrayParam(counts, ([id]) => id)}::text[], ${arrayParam(counts, ([, credits]) => credits)}::numeric[])
      AS v(subaccount_id, credits)
    ON CONFLICT (subaccount_id, month) DO UPDATE SET credits = ${subaccountMonthlyUsage}.credits + excluded.credits`;
};

/**
 * The account's sub-accounts with their allowance and use this month (the Usage page): all of them
 * for the account's manager, else the caller's own.
 */
export const listAllowances = async (deps: Deps, view: AccountView) => {
  const { accountId } = view;
  const month = monthOf();
  const rows = await deps.db
    .select({
      subaccountId: subaccounts.id,
      name: subaccounts.name,
      locked: subaccounts.locked,
      monthlyCredits: subaccountAllowances.monthlyCredits,
      usedThisMonth: sql<string>`coalesce(${subaccountMonthlyUsage.credits}, 0)`,
    })
    .from(subaccounts)
    .leftJoin(subaccountAllowances, eq(subaccountAllowances.subaccountId, subaccounts.id))
    .leftJoin(
      subaccountMonthlyUsage,
      and(eq(subaccountMonthlyUsage.subaccountId, subaccounts.id), eq(subaccountMonthlyUsage.month, month)),
    )
    .where(and(eq(subaccounts.accountId, accountId), visibleTo(view, subaccounts.id)))
    .orderBy(subaccounts.createdAt);
  return {
    month,
    subaccounts: rows.map((row) => {
      const allowance = row.monthlyCredits === null ? null : Number(row.monthlyCredits);
      const used = Number(row.usedThisMonth);
      return {
        subaccountId: row.subaccountId,
        name: row.name,
        locked: row.locked,
        monthlyCredits: allowance,
        usedThisMonth: used,
        reached: allowance !== null && used >= allowance,
      };
    }),
  };
};

/** Sets (or with null removes) a sub-account's monthly allowance; the sub-account must be the account's. */
export const setAllowance = async (
  deps: Deps,
  accountId: string,
  subaccountId: string,
  monthlyCredits: number | null,
) => {
  const [owned] = await deps.db
    .select({ id: subaccounts.id })
    .from(subaccounts)
    .where(and(eq(subaccounts.id, subaccountId), eq(subaccounts.accountId, accountId)));
  if (!owned) throw new AppError('NOT_FOUND', 'Sub-account not found', { field: 'subaccountId' });
  if (monthlyCredits === null) {
    await deps.db.delete(subaccountAllowances).where(eq(subaccountAllowances.subaccountId, subaccountId));
  } else {
    await deps.db
      .insert(subaccountAllowances)
      .values({ subaccountId, accountId, monthlyCredits })
      .onConflictDoUpdate({
        target: subaccountAllowances.subaccountId,
        set: { monthlyCredits, updatedAt: new Date() },
      });
  }
  allowances.delete(subaccountId);
  return listAllowances(deps, wholeAccount(accountId));
};
