import type { TConnection, WidgetSettings } from '@switchboard/core';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agents } from '../agents/schema';
import { connections } from './schema';

export type ConnectionRow = typeof connections.$inferSelect;

export const findConnection = async (db: Db, id: string): Promise<ConnectionRow | null> => {
  const rows = await db.select().from(connections).where(eq(connections.id, id)).limit(1);
  return rows[0] ?? null;
};

/** The website widgets and blocks (SMS and WhatsApp agents are connections too, with no widget). */
export const WIDGET_TYPES = ['website-widget', 'website-block'] as const;
export type WidgetConnectionRow = ConnectionRow & { type: (typeof WIDGET_TYPES)[number] };
export const isWidgetRow = (row: ConnectionRow | undefined): row is WidgetConnectionRow =>
  Boolean(row && (WIDGET_TYPES as readonly string[]).includes(row.type));

export const findConnectionByWidgetId = async (db: Db, widgetId: string): Promise<WidgetConnectionRow | null> => {
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.widgetId, widgetId), inArray(connections.type, [...WIDGET_TYPES])))
    .limit(1);
  return isWidgetRow(rows[0]) ? rows[0] : null;
};

export const listConnections = async (db: Db, subaccountId: string, type?: WidgetConnectionRow['type']) =>
  (
    await db
      .select()
      .from(connections)
      .where(
        and(
          eq(connections.subaccountId, subaccountId),
          type ? eq(connections.type, type) : inArray(connections.type, [...WIDGET_TYPES]),
        ),
      )
      .orderBy(desc(connections.createdAt))
      .limit(100)
  ).filter(isWidgetRow);

/** The agent ("build") if it belongs to the sub-account. */
export const findAgentInSubaccount = async (db: Db, agentId: string, subaccountId: string) => {
  const rows = await db
    .select({
      id: agents.id,
      name: agents.name,
      subaccountId: agents.subaccountId,
      firstMessage: agents.firstMessage,
      suggestedResponses: agents.suggestedResponses,
    })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

/** A widget or block connection as the API answers it (callers pass widget rows only). */
export const toConnection = (row: ConnectionRow): TConnection => ({
  connectionId: row.id,
  widgetId: row.widgetId,
  buildId: row.buildId,
  subaccountId: row.subaccountId,
  type: row.type as TConnection['type'],
  connectionName: row.name,
  settings: row.settings as WidgetSettings as TConnection['settings'],
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  deployedAt: row.deployedAt ? row.deployedAt.toISOString() : null,
  needsRedeploy: row.deployedVersion !== row.settingsVersion || row.deployedBuildId !== row.buildId,
});
