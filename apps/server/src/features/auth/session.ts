import { hash } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { Env } from '../../platform/env';
import { newId, newToken } from '../../platform/ids';
import { users } from '../tenancy/schema';
import { sessions } from './schema';

export const SESSION_COOKIE = 'sb_session';

export interface Caller {
  userId: string;
  email: string;
  name: string;
  image: string | null;
  sessionId: string | null;
  /** Set when the caller authenticated with a platform API key. */
  apiKeyId?: string;
  /** An API key is bound to one sub-account. */
  apiKeySubaccountId?: string;
}

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

export const createSession = async (db: Db, env: Env, userId: string, userAgent?: string) => {
  const token = newToken();
  const expiresAt = new Date(Date.now() + env.SESSION_TTL_DAYS * 86_400_000);
  await db.insert(sessions).values({
    id: newId('session'),
    tokenHash: hashToken(token),
    userId,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
};

export const setSessionCookie = (reply: FastifyReply, token: string, expiresAt: Date) => {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.request.protocol === 'https',
    expires: expiresAt,
  });
};

export const clearSessionCookie = (reply: FastifyReply) => {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
};

/** Resolves the signed-in user from the session cookie, or null. */
export const callerFromSession = async (db: Db, request: FastifyRequest): Promise<Caller | null> => {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      email: users.email,
      name: users.name,
      image: users.image,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  return row ? { ...row } : null;
};

export const deleteSession = async (db: Db, sessionId: string) => {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
};
