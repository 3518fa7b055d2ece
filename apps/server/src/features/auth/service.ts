import { POST_LOGIN_PATH, type TCheckUserResponse } from '@switchboard/core';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId, newToken } from '../../platform/ids';
import type { MailBrand, Mailer } from '../../platform/mailer';
import * as tenancy from '../tenancy/repo';
import { users } from '../tenancy/schema';
import { magicLinkMail } from './mail';
import { loginTokens, oauthAccounts } from './schema';
import { createSession, hashToken } from './session';

type DbOrTx = Db | Tx;

export const findUserByEmail = async (db: DbOrTx, email: string) => {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
};

const nameFromEmail = (email: string) => {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
};

/**
 * Finds or creates the user for an address. A user who belongs to nothing and has no invitation
 * gets an agency of their own (free plan) with one sub-account, so they can start at once.
 */
export const ensureUser = async (
  tx: DbOrTx,
  input: { email: string; name?: string; image?: string | null; emailConsent?: boolean; verified?: boolean },
) => {
  let user = await findUserByEmail(tx, input.email);
  if (!user) {
    const id = newId('user');
    await tx
      .insert(users)
      .values({
        id,
        email: input.email,
        name: input.name || nameFromEmail(input.email),
        image: input.image ?? null,
        emailConsent: input.emailConsent ?? false,
        emailVerifiedAt: input.verified ? new Date() : null,
      })
      .onConflictDoNothing();
    user = await findUserByEmail(tx, input.email);
    if (!user) throw new AppError('DATABASE_ERROR', 'User could not be created');
  } else if (input.verified && !user.emailVerifiedAt) {
    await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
  }
  await tenancy.acceptInvites(tx, user.id, input.email);
  if ((await tenancy.countMemberships(tx, user.id)) === 0) {
    const name = user.name || nameFromEmail(input.email);
    await tenancy.createAccountWithSubaccount(tx, {
      ownerUserId: user.id,
      accountName: `${name}'s Agency`,
      subaccountName: `${name}'s Workspace`,
    });
  }
  return user;
};

export const checkUser = async (db: Db, email: string): Promise<TCheckUserResponse> => {
  const user = await findUserByEmail(db, email);
  if (!user) return { exists: false, hasAccess: false, needsVerification: false };
  const hasAccess = (await tenancy.countMemberships(db, user.id)) > 0 || (await tenancy.hasPendingInvites(db, email));
  return { exists: true, hasAccess, needsVerification: !user.emailVerifiedAt };
};

export const preRegister = async (db: Db, email: string, emailConsent: boolean) => {
  const user = await db.transaction((tx) => ensureUser(tx, { email, emailConsent }));
  if (emailConsent && !user.emailConsent) {
    await db.update(users).set({ emailConsent: true }).where(eq(users.id, user.id));
  }
  return user.id;
};

export const checkLinkedAccess = async (db: Db, email: string) => {
  const user = await findUserByEmail(db, email);
  if (await tenancy.hasPendingInvites(db, email)) return true;
  return user ? (await tenancy.countMemberships(db, user.id)) > 0 : false;
};

/** Sends a single-use sign-in link; the link opens a confirmation page, never signs in by itself. */
export const sendMagicLink = async (
  deps: Deps,
  mailer: Mailer,
  input: { email: string; callbackPath?: string; origin: string; brand?: MailBrand | null },
) => {
  const user = await findUserByEmail(deps.db, input.email);
  if (!user && !(await tenancy.hasPendingInvites(deps.db, input.email))) return false;
  const token = newToken();
  await deps.db.insert(loginTokens).values({
    tokenHash: hashToken(token),
    email: input.email,
    callbackPath: input.callbackPath ?? POST_LOGIN_PATH,
    expiresAt: new Date(Date.now() + deps.env.MAGIC_LINK_TTL_MINUTES * 60_000),
  });
  // A branded link names its agency, so the confirmation page shows the agency's brand.
  const agency = input.brand ? `&a=${encodeURIComponent(input.brand.slug)}` : '';
  const link = `${input.origin}/auth/confirm?token=${encodeURIComponent(token)}${agency}`;
  await mailer.send(magicLinkMail(input.email, link, deps.env.MAGIC_LINK_TTL_MINUTES, input.brand));
  return true;
};

/** Spends a sign-in token (once, atomically) and opens a session. */
export const confirmMagicLink = async (deps: Deps, token: string, userAgent?: string) => {
  const spent = await deps.db
    .update(loginTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(loginTokens.tokenHash, hashToken(token)),
        isNull(loginTokens.usedAt),
        gt(loginTokens.expiresAt, new Date()),
      ),
    )
    .returning({ email: loginTokens.email, callbackPath: loginTokens.callbackPath });
  const row = spent[0];
  if (!row) {
    throw new AppError('UNAUTHORIZED', 'This sign-in link has expired or was already used. Request a new one.', {
      reason: 'link_invalid',
    });
  }
  const user = await deps.db.transaction((tx) => ensureUser(tx, { email: row.email, verified: true }));
  const session = await createSession(deps.db, deps.env, user.id, userAgent);
  return { session, redirectUrl: row.callbackPath };
};

export const directLogin = async (deps: Deps, email: string, userAgent?: string) => {
  if (!deps.env.DIRECT_LOGIN_ALLOWLIST.includes(email)) {
    throw new AppError('FORBIDDEN', 'Direct login is not available for this address');
  }
  const user = await deps.db.transaction((tx) => ensureUser(tx, { email, verified: true }));
  return createSession(deps.db, deps.env, user.id, userAgent);
};

/** Signs in (or up) a Google user: the Google account id is linked to the user of its verified email. */
export const signInWithGoogle = async (
  deps: Deps,
  profile: { sub: string; email: string; name?: string; picture?: string; emailConsent: boolean },
  userAgent?: string,
) => {
  const user = await deps.db.transaction(async (tx) => {
    const linked = await tx
      .select({ userId: oauthAccounts.userId })
      .from(oauthAccounts)
      .where(and(eq(oauthAccounts.provider, 'google'), eq(oauthAccounts.providerAccountId, profile.sub)))
      .limit(1);
    const found = await ensureUser(tx, {
      email: profile.email,
      name: profile.name,
      image: profile.picture ?? null,
      emailConsent: profile.emailConsent,
      verified: true,
    });
    if (!linked[0]) {
      await tx
        .insert(oauthAccounts)
        .values({ provider: 'google', providerAccountId: profile.sub, userId: found.id })
        .onConflictDoNothing();
    }
    return found;
  });
  return createSession(deps.db, deps.env, user.id, userAgent);
};
