/**
 * Who may see and change an agency's money. The data model has no account-level role: an account
 * has an owner, and people hold a role (admin, member, viewer) in each sub-account (a client of
 * the agency). So:
 * - the account's **manager** (its plan, invoices, card, credit packs, promo codes, checkout, plan
 *   changes, alerts, auto-recharge and every client's usage and allowance) is its owner, or a user
 *   who is admin of every one of its sub-accounts (the agency's own staff: a new sub-account makes
 *   its owner and its creator admins, and a transfer of ownership makes the new owner admin of all);
 * - anyone else (a member or viewer, or an admin of some clients only) sees the usage and
 *   allowances of the sub-accounts they belong to, and nothing of the agency's money;
 * - an API key is bound to one sub-account: it sees that sub-account only.
 */
import { type AnyColumn, and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Caller } from '../features/auth/session';
import { accounts, memberships, subaccounts } from '../features/tenancy/schema';

export interface AccountScope {
  /** The owner or an admin of every sub-account: manages the agency's billing. */
  manager: boolean;
  /** The sub-accounts whose usage and allowances the caller sees (all of them for a manager). */
  subaccountIds: string[];
}

/** An account as one caller sees it: what a billing read is filtered by. */
export interface AccountView extends AccountScope {
  accountId: string;
}

/** The whole account, for code acting as its manager (a manager-only route answering with a list). */
export const wholeAccount = (accountId: string): AccountView => ({ accountId, manager: true, subaccountIds: [] });

/** The condition keeping a read to the sub-accounts the view may see (none needed for a manager). */
export const visibleTo = (view: AccountView, subaccountColumn: AnyColumn): SQL | undefined =>
  view.manager ? undefined : inArray(subaccountColumn, view.subaccountIds);

/** The manager rule over the sub-accounts of one account with the caller's role in each (null: none). */
const scopeFrom = (userId: string, ownerUserId: string, rows: { id: string; role: string | null }[]): AccountScope => {
  const manager = ownerUserId === userId || (rows.length > 0 && rows.every((row) => row.role === 'admin'));
  return {
    manager,
    subaccountIds: rows.filter((row) => manager || row.role !== null).map((row) => row.id),
  };
};

/** The caller's scope in each of the accounts (one statement); an account they are not in is absent. */
export const accountScopes = async (
  db: Db,
  userId: string,
  accountIds: string[],
): Promise<Map<string, AccountScope>> => {
  const scopes = new Map<string, AccountScope>();
  if (accountIds.length === 0) return scopes;
  const rows = await db
    .select({
      accountId: subaccounts.accountId,
      ownerUserId: accounts.ownerUserId,
      id: subaccounts.id,
      role: memberships.role,
    })
    .from(subaccounts)
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .leftJoin(memberships, and(eq(memberships.subaccountId, subaccounts.id), eq(memberships.userId, userId)))
    .where(inArray(subaccounts.accountId, accountIds));
  const byAccount = new Map<string, { ownerUserId: string; rows: { id: string; role: string | null }[] }>();
  for (const row of rows) {
    const entry = byAccount.get(row.accountId) ?? { ownerUserId: row.ownerUserId, rows: [] };
    entry.rows.push({ id: row.id, role: row.role });
    byAccount.set(row.accountId, entry);
  }
  for (const [accountId, entry] of byAccount) {
    const scope = scopeFrom(userId, entry.ownerUserId, entry.rows);
    if (scope.manager || scope.subaccountIds.length > 0) scopes.set(accountId, scope);
  }
  return scopes;
};

/** The caller's scope in one account; an API key sees its own sub-account only and manages nothing. */
export const accountScopeFor = async (db: Db, caller: Caller, accountId: string): Promise<AccountScope> => {
  if (caller.apiKeySubaccountId) return { manager: false, subaccountIds: [caller.apiKeySubaccountId] };
  return (await accountScopes(db, caller.userId, [accountId])).get(accountId) ?? { manager: false, subaccountIds: [] };
};

/** True when the user manages the account (owner, or admin of every sub-account). */
export const managesAccount = async (db: Db, userId: string, accountId: string): Promise<boolean> =>
  (await accountScopes(db, userId, [accountId])).get(accountId)?.manager ?? false;

/** The accounts the user manages, among those given. */
export const managedAccountIds = async (db: Db, userId: string, accountIds: string[]): Promise<Set<string>> => {
  const scopes = await accountScopes(db, userId, accountIds);
  return new Set([...scopes].filter(([, scope]) => scope.manager).map(([id]) => id));
};
