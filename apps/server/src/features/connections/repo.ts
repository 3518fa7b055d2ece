import type { TConnection, WidgetSettings } from '@switchboard/core';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agents } from '../agents/schema';
import { connections } from './schema';

export type ConnectionRow = typeof connections.$inferSelect;

export const findConnection = async (db: Db, id: string): Promise<ConnectionRow | null> => {
  const rows = await db.select().from(connections).where(eq(connections.id, id)).limit(1);
  return rows[0] ?? null;
};

export const findConnectionByWidgetId = async (db: Db, widgetId: string): Promise<ConnectionRow | null> => {
  const rows = await db.select().from(connections).where(eq(connections.widgetId, widgetId)).limit(1);
  return rows[0] ?? null;
};

export const listConnections = async (db: Db, subaccountId: string, type?: ConnectionRow['type']) =>
  db
    .select()
    .from(connections)
    .where(
      type
        ? and(eq(connections.subaccountId, subaccountId), eq(connections.type, type))
        : eq(connections.subaccountId, subaccountId),
    )
    .orderBy(desc(connections.createdAt))
    .limit(100);

/** The agent ("build") if it belongs to the sub-account. */
export const findAgentInSubaccount = async (db: Db, agentId: string, subaccountId: string) => {
  const rows = await db
    .select({ id: agents.id, name: agents.name, subaccountId: agents.subaccountId })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const toConnection = (row: ConnectionRow): TConnection => ({
  connectionId: row.id,
  widgetId: row.widgetId,
  buildId: row.buildId,
  subaccountId: row.subaccountId,
  type: row.type,
  connectionName: row.name,
  settings: row.settings as WidgetSettings as TConnection['settings'],
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  deployedAt: row.deployedAt ? row.deployedAt.toISOString() : null,
  needsRedeploy: row.deployedVersion !== row.settingsVersion || row.deployedBuildId !== row.buildId,
});
