import type { TDiscoveredTool, TIntegrationConnection } from '@switchboard/core';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { integrationConnections, sandboxAppRecords } from './schema';

export type ConnectionRow = typeof integrationConnections.$inferSelect;

export const toView = (row: ConnectionRow): TIntegrationConnection => ({
  id: row.id,
  subaccountId: row.subaccountId,
  appSlug: row.appSlug,
  appName: row.appName,
  status: row.status,
  authKind: row.authKind,
  sandbox: row.sandbox,
  lastError: row.lastError,
  discoveredTools: row.discoveredTools,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const listConnections = (db: Db | Tx, subaccountId: string) =>
  db
    .select()
    .from(integrationConnections)
    .where(eq(integrationConnections.subaccountId, subaccountId))
    .orderBy(integrationConnections.appName)
    .limit(500);

export const listConnectionsOf = (db: Db | Tx, subaccountIds: string[]) =>
  db
    .select({
      id: integrationConnections.id,
      appName: integrationConnections.appName,
      status: integrationConnections.status,
      sandbox: integrationConnections.sandbox,
    })
    .from(integrationConnections)
    .where(inArray(integrationConnections.subaccountId, subaccountIds));

export const findConnection = async (db: Db | Tx, id: string): Promise<ConnectionRow | null> => {
  const rows = await db.select().from(integrationConnections).where(eq(integrationConnections.id, id)).limit(1);
  return rows[0] ?? null;
};

/** A connection of the sub-account, or null (another tenant's id reads as absent). */
export const findOwnConnection = async (db: Db | Tx, subaccountId: string, id: string) => {
  const row = await findConnection(db, id);
  return row && row.subaccountId === subaccountId ? row : null;
};

export const findConnectionByApp = async (db: Db, subaccountId: string, appSlug: string) => {
  const rows = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.subaccountId, subaccountId), eq(integrationConnections.appSlug, appSlug)))
    .limit(1);
  return rows[0] ?? null;
};

export const findConnectionByState = async (db: Db, state: string) => {
  const rows = await db
    .select()
    .from(integrationConnections)
    .where(eq(integrationConnections.oauthState, state))
    .limit(1);
  return rows[0] ?? null;
};

export const insertConnection = async (db: Db, values: typeof integrationConnections.$inferInsert) => {
  const rows = await db.insert(integrationConnections).values(values).returning();
  return rows[0] as ConnectionRow;
};

export const updateConnection = async (
  db: Db,
  id: string,
  change: Partial<
    Pick<ConnectionRow, 'status' | 'externalId' | 'oauthState' | 'lastError' | 'sandbox' | 'authKind'> & {
      discoveredTools: TDiscoveredTool[];
    }
  >,
) => {
  const rows = await db
    .update(integrationConnections)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(integrationConnections.id, id))
    .returning();
  return rows[0] ?? null;
};

export const deleteConnection = (db: Db, id: string) =>
  db.delete(integrationConnections).where(eq(integrationConnections.id, id));

export const listSandboxRecords = (db: Db, subaccountId: string) =>
  db
    .select()
    .from(sandboxAppRecords)
    .where(eq(sandboxAppRecords.subaccountId, subaccountId))
    .orderBy(desc(sandboxAppRecords.createdAt))
    .limit(100);
