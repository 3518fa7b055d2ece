/**
 * Which agency's brand a sign-in mail carries. The agency is the one whose page the person signs
 * in from (its verified domain, or its slug's page), or, for a person who is only ever a client,
 * the agency of their portal; a mail is branded only for a person of that agency (a member of one
 * of its sub-accounts or invited to one), so no page sends another agency's people its name.
 */
import { and, eq } from 'drizzle-orm';
import { isClientOnly } from '../../platform/client-gate';
import type { Deps } from '../../platform/deps';
import type { MailBrand } from '../../platform/mailer';
import { invites, memberships, subaccounts, users } from '../tenancy/schema';
import { mailBrandOf } from './service';

const belongsTo = async (deps: Deps, email: string, accountId: string): Promise<boolean> => {
  const [member] = await deps.db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .where(and(eq(users.email, email), eq(subaccounts.accountId, accountId)))
    .limit(1);
  if (member) return true;
  const [invited] = await deps.db
    .select({ id: invites.id })
    .from(invites)
    .innerJoin(subaccounts, eq(subaccounts.id, invites.subaccountId))
    .where(and(eq(invites.email, email), eq(subaccounts.accountId, accountId)))
    .limit(1);
  return Boolean(invited);
};

/**
 * The agency of a person who is only ever a client (their first client membership), or of an
 * address not signed up yet whose invitation is as a client; null for anyone else.
 */
const clientAgencyOf = async (deps: Deps, email: string): Promise<string | null> => {
  const [user] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (user) {
    if (!(await isClientOnly(deps.db, user.id))) return null;
    const [first] = await deps.db
      .select({ accountId: subaccounts.accountId })
      .from(memberships)
      .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
      .where(and(eq(memberships.userId, user.id), eq(memberships.role, 'client')))
      .orderBy(memberships.createdAt)
      .limit(1);
    return first?.accountId ?? null;
  }
  const [invite] = await deps.db
    .select({ accountId: subaccounts.accountId })
    .from(invites)
    .innerJoin(subaccounts, eq(subaccounts.id, invites.subaccountId))
    .where(and(eq(invites.email, email), eq(invites.role, 'client')))
    .orderBy(invites.createdAt)
    .limit(1);
  return invite?.accountId ?? null;
};

/** The brand of a sign-in mail to `email`, asked for from the page of `accountId` (null: the platform's page). */
export const signInMailBrand = async (
  deps: Deps,
  email: string,
  accountId: string | null,
): Promise<MailBrand | null> => {
  if (accountId) return (await belongsTo(deps, email, accountId)) ? mailBrandOf(deps, accountId) : null;
  const clientOf = await clientAgencyOf(deps, email);
  return clientOf ? mailBrandOf(deps, clientOf) : null;
};
