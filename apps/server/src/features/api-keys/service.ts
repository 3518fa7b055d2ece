import { API_KEY_PREFIX, type TApiKeyView, type TCreatedApiKey } from '@switchboard/core';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { CallerResolver } from '../../platform/guard';
import { newId, newToken } from '../../platform/ids';
import { TtlCache } from '../../platform/ttl-cache';
import type { Caller } from '../auth/session';
import { hashToken } from '../auth/session';
import { users } from '../tenancy/schema';
import { apiKeys } from './schema';

type ApiKeyRow = typeof apiKeys.$inferSelect;

const view = (row: ApiKeyRow): TApiKeyView => ({
  id: row.id,
  name: row.name,
  keyTail: row.keyTail,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

export const listApiKeys = async (db: Db, subaccountId: string) => {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.subaccountId, subaccountId))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(view);
};

export const createApiKey = async (
  db: Db,
  input: { subaccountId: string; userId: string; name: string },
): Promise<TCreatedApiKey> => {
  const key = `${API_KEY_PREFIX}${newToken(24)}`;
  const rows = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      subaccountId: input.subaccountId,
      userId: input.userId,
      name: input.name,
      keyHash: hashToken(key),
      keyTail: key.slice(-4),
    })
    .returning();
  const row = rows[0];
  if (!row) throw new AppError('DATABASE_ERROR', 'The key could not be stored.');
  return { ...view(row), key };
};

export const revokeApiKey = async (db: Db, subaccountId: string, keyId: string) => {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.subaccountId, subaccountId), isNull(apiKeys.revokedAt)))
    .returning();
  if (!rows[0]) throw new AppError('NOT_FOUND', 'The key does not exist or was already revoked.');
  resolved.clear();
  return view(rows[0]);
};

/** Resolved keys, kept 5 s: revoking in this process clears them at once, other processes within 5 s. */
const resolved = new TtlCache<Caller | null>(5000);

/** Writes last-used at most once a minute per key, so every request is not a write. */
const LAST_USED_EVERY_MS = 60_000;

/** Resolves `Authorization: Bearer sk_sb_...` to the key's user, bound to the key's sub-account. */
export const apiKeyCallerResolver: CallerResolver = async (
  request: FastifyRequest,
  deps: Deps,
): Promise<Caller | null> => {
  const header = request.headers.authorization;
  if (!header?.startsWith(`Bearer ${API_KEY_PREFIX}`) || header.length > 200) return null;
  const key = header.slice('Bearer '.length).trim();
  const hash = hashToken(key);
  const found = await resolved.getOrLoad(
    hash,
    async () => {
      const rows = await deps.db
        .select({ key: apiKeys, email: users.email, name: users.name, image: users.image })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      if (!row.key.lastUsedAt || Date.now() - row.key.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
        void deps.db
          .update(apiKeys)
          .set({ lastUsedAt: new Date() })
          .where(eq(apiKeys.id, row.key.id))
          .catch(() => undefined);
      }
      const caller: Caller = {
        userId: row.key.userId,
        email: row.email,
        name: row.name,
        image: row.image,
        sessionId: null,
        apiKeyId: row.key.id,
        apiKeySubaccountId: row.key.subaccountId,
      };
      return caller;
    },
    (value) => value !== null,
  );
  if (!found) throw new AppError('API_KEY_INVALID', 'The API key is invalid or has been revoked.');
  return found;
};
