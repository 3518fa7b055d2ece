import { slugFromName, type TAccount, type TMember, type TRole, type TSubaccount } from '@switchboard/core';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { managedAccountIds, managesAccount } from '../../platform/account-scope';
import { newId } from '../../platform/ids';
import { accounts, invites, memberships, subaccounts, users } from './schema';

type DbOrTx = Db | Tx;

/** Counts agents per sub-account; the agents feature registers the real counter. */
export type AgentCounter = (db: Db, subaccountIds: string[]) => Promise<Map<string, number>>;
let agentCounter: AgentCounter = async () => new Map();
export const setAgentCounter = (counter: AgentCounter) => {
  agentCounter = counter;
};

export const createAccountWithSubaccount = async (
  tx: DbOrTx,
  input: { ownerUserId: string; accountName: string; subaccountName: string },
) => {
  const accountId = newId('account');
  const subaccountId = newId('subaccount');
  // The id's tail keeps the slug unique without a lookup; the manager may choose another.
  const slug = `${slugFromName(input.accountName, 33)}-${accountId.slice(-6)}`;
  await tx.insert(accounts).values({ id: accountId, name: input.accountName, ownerUserId: input.ownerUserId, slug });
  await tx.insert(subaccounts).values({ id: subaccountId, accountId, name: input.subaccountName });
  await tx.insert(memberships).values({
    id: newId('membership'),
    subaccountId,
    userId: input.ownerUserId,
    role: 'admin',
  });
  return { accountId, subaccountId };
};

export const insertSubaccount = async (
  tx: DbOrTx,
  input: { accountId: string; name: string; ownerUserId: string; creatorUserId: string },
) => {
  const id = newId('subaccount');
  await tx.insert(subaccounts).values({ id, accountId: input.accountId, name: input.name });
  const admins = [...new Set([input.ownerUserId, input.creatorUserId])];
  await tx
    .insert(memberships)
    .values(admins.map((userId) => ({ id: newId('membership'), subaccountId: id, userId, role: 'admin' as const })));
  return id;
};

/** Turns every pending invitation for the address into a membership. */
export const acceptInvites = async (tx: DbOrTx, userId: string, email: string) => {
  const pending = await tx.select().from(invites).where(eq(invites.email, email));
  for (const invite of pending) {
    await tx
      .insert(memberships)
      .values({ id: newId('membership'), subaccountId: invite.subaccountId, userId, role: invite.role })
      .onConflictDoNothing();
  }
  if (pending.length) await tx.delete(invites).where(eq(invites.email, email));
  return pending.length;
};

export const hasPendingInvites = async (db: DbOrTx, email: string) => {
  const rows = await db.select({ id: invites.id }).from(invites).where(eq(invites.email, email)).limit(1);
  return rows.length > 0;
};

export const countMemberships = async (db: DbOrTx, userId: string) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return rows[0]?.n ?? 0;
};

/** The caller's accounts with the sub-accounts they are a member of, in creation order. */
export const listAccountsForUser = async (db: Db, userId: string): Promise<TAccount[]> => {
  const rows = await db
    .select({
      accountId: accounts.id,
      accountName: accounts.name,
      ownerUserId: accounts.ownerUserId,
      subaccountId: subaccounts.id,
      name: subaccounts.name,
      logoUrl: subaccounts.logoUrl,
      locked: subaccounts.locked,
      createdAt: subaccounts.createdAt,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(accounts.createdAt), asc(subaccounts.createdAt));
  const counts = await agentCounter(
    db,
    rows.map((row) => row.subaccountId),
  );
  const managed = await managedAccountIds(db, userId, [...new Set(rows.map((row) => row.accountId))]);
  const byAccount = new Map<string, TAccount>();
  for (const row of rows) {
    let account = byAccount.get(row.accountId);
    if (!account) {
      account = {
        id: row.accountId,
        name: row.accountName,
        isOwner: row.ownerUserId === userId,
        canManageBilling: managed.has(row.accountId),
        subaccounts: [],
      };
      byAccount.set(row.accountId, account);
    }
    const subaccount: TSubaccount = {
      id: row.subaccountId,
      accountId: row.accountId,
      name: row.name,
      logoUrl: row.logoUrl,
      role: row.role,
      agentCount: counts.get(row.subaccountId) ?? 0,
      locked: row.locked,
      createdAt: row.createdAt.toISOString(),
    };
    account.subaccounts.push(subaccount);
  }
  return [...byAccount.values()];
};

export const findAccount = async (db: Db, accountId: string) => {
  const rows = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return rows[0] ?? null;
};

export const findSubaccount = async (db: Db, subaccountId: string) => {
  const rows = await db.select().from(subaccounts).where(eq(subaccounts.id, subaccountId)).limit(1);
  return rows[0] ?? null;
};

/** True when the user may act for the whole account (add clients): its manager, see account-scope.ts. */
export const isAccountAdmin = (db: Db, userId: string, accountId: string) => managesAccount(db, userId, accountId);

export const listMembers = async (db: Db, subaccountId: string): Promise<TMember[]> => {
  const active = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      isOwner: sql<boolean>`${accounts.ownerUserId} = ${users.id}`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .where(eq(memberships.subaccountId, subaccountId))
    .orderBy(asc(memberships.createdAt));
  const pending = await db
    .select()
    .from(invites)
    .where(eq(invites.subaccountId, subaccountId))
    .orderBy(asc(invites.createdAt));
  return [
    ...active.map((row) => ({
      userId: row.userId,
      inviteId: null,
      email: row.email,
      name: row.name,
      role: row.role,
      status: 'active' as const,
      isOwner: Boolean(row.isOwner),
    })),
    ...pending.map((row) => ({
      userId: null,
      inviteId: row.id,
      email: row.email,
      name: '',
      role: row.role,
      status: 'invited' as const,
      isOwner: false,
    })),
  ];
};

export const countAdmins = async (tx: DbOrTx, subaccountId: string) => {
  const rows = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.subaccountId, subaccountId), eq(memberships.role, 'admin')));
  return rows[0]?.n ?? 0;
};

/** The user id of the owner of the agency a sub-account belongs to. */
export const ownerOfSubaccount = async (tx: DbOrTx, subaccountId: string): Promise<string | null> => {
  const rows = await tx
    .select({ ownerUserId: accounts.ownerUserId })
    .from(subaccounts)
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .where(eq(subaccounts.id, subaccountId))
    .limit(1);
  return rows[0]?.ownerUserId ?? null;
};

export const findMemberRole = async (tx: DbOrTx, subaccountId: string, userId: string): Promise<TRole | null> => {
  const rows = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.subaccountId, subaccountId), eq(memberships.userId, userId)))
    .limit(1);
  return rows[0]?.role ?? null;
};

export const subaccountIdsOf = async (db: Db, userId: string) =>
  (await db.select({ id: memberships.subaccountId }).from(memberships).where(eq(memberships.userId, userId))).map(
    (row) => row.id,
  );
