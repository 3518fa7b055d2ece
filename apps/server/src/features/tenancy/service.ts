import { roleAtLeast, type TInviteMemberRequest, type TRole } from '@switchboard/core';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { publishMembershipChange } from '../../platform/guard';
import { newId } from '../../platform/ids';
import type { MailBrandLookup, Mailer } from '../../platform/mailer';
import { inviteMail } from './mail';
import * as repo from './repo';
import { accounts, invites, memberships, subaccounts, users } from './schema';

/**
 * The agencies and sub-accounts a user belongs to; for a caller with an API key, only the key's
 * sub-account (and its agency, without the others, and without its billing).
 */
export const listAccounts = async (deps: Deps, userId: string, onlySubaccountId?: string) => {
  const accounts = await repo.listAccountsForUser(deps.db, userId);
  if (!onlySubaccountId) return accounts;
  return accounts
    .map((account) => ({
      ...account,
      canManageBilling: false,
      subaccounts: account.subaccounts.filter((subaccount) => subaccount.id === onlySubaccountId),
    }))
    .filter((account) => account.subaccounts.length > 0);
};

export const createSubaccount = async (deps: Deps, userId: string, accountId: string, name: string) => {
  const account = await repo.findAccount(deps.db, accountId);
  if (!account || !(await repo.isAccountAdmin(deps.db, userId, accountId))) {
    throw new AppError('NOT_FOUND', 'Account not found');
  }
  const id = await deps.db.transaction(async (tx) => {
    const created = await repo.insertSubaccount(tx, {
      accountId,
      name,
      ownerUserId: account.ownerUserId,
      creatorUserId: userId,
    });
    // The plan's limit (billing) refuses one too many here: the transaction then rolls back.
    await publish(deps, 'subaccount.created', { accountId, subaccountId: created }, tx);
    return created;
  });
  const accounts = await repo.listAccountsForUser(deps.db, userId);
  const created = accounts.flatMap((item) => item.subaccounts).find((item) => item.id === id);
  if (!created) throw new AppError('INTERNAL_SERVER_ERROR', 'Sub-account was not created');
  return created;
};

export const listMembers = async (deps: Deps, subaccountId: string) => repo.listMembers(deps.db, subaccountId);

/** Invites by email: an existing user joins at once, anyone else when they first sign in. */
export const inviteMember = async (
  deps: Deps,
  mailer: Mailer,
  input: {
    subaccountId: string;
    invitedBy: string;
    byRole: TRole;
    origin: string;
    /** The agency's brand for a client's invitation (features/portal). */
    mailBrand?: MailBrandLookup;
  } & TInviteMemberRequest,
) => {
  assertCanGrant(input.byRole, input.role);
  const subaccount = await repo.findSubaccount(deps.db, input.subaccountId);
  if (!subaccount) throw new AppError('NOT_FOUND', 'Sub-account not found');
  const existing = await deps.db.select().from(users).where(eq(users.email, input.email)).limit(1);
  const user = existing[0];
  if (user) {
    const current = await repo.findMemberRole(deps.db, input.subaccountId, user.id);
    if (current) throw new AppError('CONFLICT', `${input.email} is already a member`, { field: 'email' });
    await deps.db
      .insert(memberships)
      .values({ id: newId('membership'), subaccountId: input.subaccountId, userId: user.id, role: input.role });
  } else {
    const inserted = await deps.db
      .insert(invites)
      .values({
        id: newId('invite'),
        subaccountId: input.subaccountId,
        email: input.email,
        role: input.role,
        invitedBy: input.invitedBy,
      })
      .onConflictDoNothing()
      .returning({ id: invites.id });
    if (inserted.length === 0) throw new AppError('CONFLICT', `${input.email} is already invited`, { field: 'email' });
  }
  // A client is invited by the agency, to its sign-in page (on its own domain when asked there).
  const brand = input.role === 'client' ? await input.mailBrand?.(subaccount.accountId) : null;
  const link = brand ? `${input.origin}/a/${brand.slug}` : `${input.origin}/?signin=1`;
  await mailer.send(inviteMail(input.email, link, subaccount.name, input.role, brand));
  return repo.listMembers(deps.db, input.subaccountId);
};

const OWNER_STAYS = "The agency's owner cannot be demoted or removed; the owner can transfer ownership first";

/** Nobody grants a role above their own. */
const assertCanGrant = (byRole: TRole, role: TRole) => {
  if (!roleAtLeast(byRole, role)) {
    throw new AppError('FORBIDDEN', `You cannot grant the ${role} role, which is above your own`, { field: 'role' });
  }
};

/** Changes a member's role; the last admin of a sub-account and the agency's owner keep theirs. */
export const changeRole = async (deps: Deps, subaccountId: string, userId: string, role: TRole, byRole: TRole) => {
  assertCanGrant(byRole, role);
  await deps.db.transaction(async (tx) => {
    await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.id, subaccountId)).for('update');
    const current = await repo.findMemberRole(tx, subaccountId, userId);
    if (!current) throw new AppError('NOT_FOUND', 'Member not found');
    if (role !== 'admin' && (await repo.ownerOfSubaccount(tx, subaccountId)) === userId) {
      throw new AppError('FORBIDDEN', OWNER_STAYS, { field: 'role' });
    }
    if (current === 'admin' && role !== 'admin' && (await repo.countAdmins(tx, subaccountId)) <= 1) {
      throw new AppError('CONFLICT', 'A sub-account needs at least one admin', { field: 'role' });
    }
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.subaccountId, subaccountId), eq(memberships.userId, userId)));
  });
  await publishMembershipChange(deps, userId, subaccountId);
  return repo.listMembers(deps.db, subaccountId);
};

export const changeInviteRole = async (
  deps: Deps,
  subaccountId: string,
  inviteId: string,
  role: TRole,
  byRole: TRole,
) => {
  assertCanGrant(byRole, role);
  const updated = await deps.db
    .update(invites)
    .set({ role })
    .where(and(eq(invites.subaccountId, subaccountId), eq(invites.id, inviteId)))
    .returning({ id: invites.id });
  if (updated.length === 0) throw new AppError('NOT_FOUND', 'Invitation not found');
  return repo.listMembers(deps.db, subaccountId);
};

export const removeMember = async (deps: Deps, subaccountId: string, userId: string) => {
  await deps.db.transaction(async (tx) => {
    await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.id, subaccountId)).for('update');
    const current = await repo.findMemberRole(tx, subaccountId, userId);
    if (!current) throw new AppError('NOT_FOUND', 'Member not found');
    if ((await repo.ownerOfSubaccount(tx, subaccountId)) === userId) throw new AppError('FORBIDDEN', OWNER_STAYS);
    if (current === 'admin' && (await repo.countAdmins(tx, subaccountId)) <= 1) {
      throw new AppError('CONFLICT', 'A sub-account needs at least one admin');
    }
    await tx.delete(memberships).where(and(eq(memberships.subaccountId, subaccountId), eq(memberships.userId, userId)));
  });
  await publishMembershipChange(deps, userId, subaccountId);
  return repo.listMembers(deps.db, subaccountId);
};

export const revokeInvite = async (deps: Deps, subaccountId: string, inviteId: string) => {
  const deleted = await deps.db
    .delete(invites)
    .where(and(eq(invites.subaccountId, subaccountId), eq(invites.id, inviteId)))
    .returning({ id: invites.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Invitation not found');
  return repo.listMembers(deps.db, subaccountId);
};

/** The user owns the agency or is a member of one of its sub-accounts. */
export const belongsToAccount = async (deps: Deps, userId: string, accountId: string): Promise<boolean> => {
  if (accountId.length > 64) return false;
  const rows = await deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .leftJoin(subaccounts, eq(subaccounts.accountId, accounts.id))
    .leftJoin(memberships, and(eq(memberships.subaccountId, subaccounts.id), eq(memberships.userId, userId)))
    .where(and(eq(accounts.id, accountId), or(eq(accounts.ownerUserId, userId), eq(memberships.userId, userId))))
    .limit(1);
  return rows.length > 0;
};

/**
 * Moves the agency to another person, by its owner only: the new owner must already be an admin
 * of one of its sub-accounts, becomes admin of all of them, and the old owner stays admin. The
 * account row is locked, so two transfers at once end with one owner.
 */
export const transferOwnership = async (deps: Deps, accountId: string, callerId: string, newOwnerId: string) => {
  const subaccountIds = await deps.db.transaction(async (tx) => {
    const locked = await tx
      .select({ ownerUserId: accounts.ownerUserId })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    const account = locked[0];
    if (!account) throw new AppError('NOT_FOUND', 'Not found');
    const subs = await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.accountId, accountId));
    const ids = subs.map((sub) => sub.id);
    const callerRoles = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, callerId), inArray(memberships.subaccountId, ids)));
    if (account.ownerUserId !== callerId && callerRoles.length === 0) throw new AppError('NOT_FOUND', 'Not found');
    if (account.ownerUserId !== callerId) {
      throw new AppError('FORBIDDEN', "Only the agency's owner can transfer ownership");
    }
    if (newOwnerId === callerId) throw new AppError('CONFLICT', 'You already own this agency', { field: 'userId' });
    const admin = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(
        and(eq(memberships.userId, newOwnerId), inArray(memberships.subaccountId, ids), eq(memberships.role, 'admin')),
      )
      .limit(1);
    if (!admin[0]) {
      throw new AppError('VALIDATION_ERROR', 'Ownership can only move to an admin of this agency', {
        field: 'userId',
      });
    }
    await tx.update(accounts).set({ ownerUserId: newOwnerId }).where(eq(accounts.id, accountId));
    for (const subaccountId of ids) {
      await tx
        .insert(memberships)
        .values({ id: newId('membership'), subaccountId, userId: newOwnerId, role: 'admin' })
        .onConflictDoUpdate({ target: [memberships.subaccountId, memberships.userId], set: { role: 'admin' } });
    }
    return ids;
  });
  for (const subaccountId of subaccountIds) await publishMembershipChange(deps, newOwnerId, subaccountId);
  return { accountId, ownerUserId: newOwnerId };
};
