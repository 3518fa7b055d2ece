import type { TKeyedProviderId } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { providerKeys } from './schema';

export type ProviderKeyRow = typeof providerKeys.$inferSelect;

export const findProviderKey = async (db: Db, accountId: string, provider: TKeyedProviderId) => {
  const rows = await db
    .select()
    .from(providerKeys)
    .where(and(eq(providerKeys.accountId, accountId), eq(providerKeys.provider, provider)))
    .limit(1);
  return rows[0] ?? null;
};

export const listProviderKeys = (db: Db, accountId: string) =>
  db.select().from(providerKeys).where(eq(providerKeys.accountId, accountId));
