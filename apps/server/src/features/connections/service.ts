import {
  fitText,
  STORED_WIDGET_DEFAULTS,
  type TConnection,
  type TCreateConnectionRequest,
  type TUpdateConnectionRequest,
  withWidgetDefaults,
  ZWidgetSettings,
} from '@switchboard/core';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { replyAsAgent } from '../conversations/reply';
import { assertWithinLimit } from './limits';
import * as repo from './repo';
import { connections } from './schema';

/** Published when a widget's live configuration changes, so every process drops its cached copy. */
export const widgetChangedChannel = 'widget:changed';

const TYPE_NAMES = { 'website-widget': 'Website Widget', 'website-block': 'Website Block' } as const;
/** The limits of a connection's name and widget title (ZUpdateConnectionRequest, ZWidgetSettings). */
const CONNECTION_NAME_MAX = 80;
const WIDGET_TITLE_MAX = 80;

/** "{agent name} Website Widget", the agent's name cut so the whole fits the name's limit. */
const derivedConnectionName = (agentName: string, type: keyof typeof TYPE_NAMES) => {
  const suffix = TYPE_NAMES[type];
  return `${fitText(agentName, CONNECTION_NAME_MAX - suffix.length - 1)} ${suffix}`;
};

const loadOwned = async (db: Db, subaccountId: string, connectionId: string) => {
  const row = await repo.findConnection(db, connectionId);
  if (!row || row.subaccountId !== subaccountId || !repo.isWidgetRow(row))
    throw new AppError('CONNECTION_NOT_FOUND', 'Widget not found');
  return row;
};

export const getConnection = async (db: Db, subaccountId: string, connectionId: string): Promise<TConnection> =>
  repo.toConnection(await loadOwned(db, subaccountId, connectionId));

export const listConnections = async (db: Db, subaccountId: string, type?: TConnection['type']) =>
  (await repo.listConnections(db, subaccountId, type)).map(repo.toConnection);

/** Creates a connection with the stored defaults; it is deployed at once so its embed code works. */
export const createConnection = async (
  deps: Deps,
  tenant: { subaccountId: string; accountId: string },
  input: TCreateConnectionRequest,
): Promise<TConnection> => {
  const agent = await repo.findAgentInSubaccount(deps.db, input.buildId, tenant.subaccountId);
  if (!agent) throw new AppError('BUILD_NOT_FOUND', 'Pick an agent of this sub-account', { field: 'buildId' });
  // A new widget speaks as its agent: its name, greeting and suggestions (each cut to the widget's limits).
  const suggestions = agent.suggestedResponses.filter((text) => text.trim()).slice(0, 3);
  const settings = {
    ...STORED_WIDGET_DEFAULTS,
    widgetTitle: fitText(agent.name || STORED_WIDGET_DEFAULTS.widgetTitle, WIDGET_TITLE_MAX),
    aiName: fitText(agent.name || STORED_WIDGET_DEFAULTS.aiName, 80),
    ...(agent.firstMessage.trim() ? { firstMessage: fitText(agent.firstMessage.trim(), 1000) } : {}),
    ...(suggestions.length ? { suggestedResponses: suggestions.map((text) => fitText(text.trim(), 120)) } : {}),
  };
  const now = new Date();
  // The plan's connections-per-type limit is checked in the same transaction as the insert.
  const row = await deps.db.transaction(async (tx) => {
    await assertWithinLimit(deps, tenant.accountId, 'connections', {
      tx,
      subaccountId: tenant.subaccountId,
      connectionType: input.type,
    });
    const [inserted] = await tx
      .insert(connections)
      .values({
        id: newId('connection'),
        subaccountId: tenant.subaccountId,
        accountId: tenant.accountId,
        type: input.type,
        name: input.connectionName ?? derivedConnectionName(agent.name, input.type),
        widgetId: newId('widget'),
        buildId: agent.id,
        settings,
        deployedSettings: settings,
        deployedBuildId: agent.id,
        settingsVersion: 1,
        deployedVersion: 1,
        deployedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return inserted;
  });
  if (!row) throw new AppError('CONNECTION_CREATION_FAILED', 'The connection could not be created');
  return repo.toConnection(row);
};

/** Merges the changed settings into the saved ones and validates the whole result before writing. */
export const updateSettings = async (
  db: Db,
  subaccountId: string,
  connectionId: string,
  input: TUpdateConnectionRequest,
): Promise<TConnection> => {
  const row = await loadOwned(db, subaccountId, connectionId);
  const current = withWidgetDefaults(row.settings);
  const merged = {
    ...current,
    ...input.settings,
    chatBubble: { ...current.chatBubble, ...(input.settings.chatBubble ?? {}) },
  };
  const parsed = ZWidgetSettings.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION_ERROR', issue?.message ?? 'Invalid settings', {
      field: `settings.${issue?.path.join('.') ?? ''}`,
    });
  }
  const [updated] = await db
    .update(connections)
    .set({
      settings: parsed.data,
      ...(input.connectionName ? { name: input.connectionName } : {}),
      settingsVersion: sql`${connections.settingsVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(connections.id, row.id))
    .returning();
  if (!updated) throw new AppError('CONNECTION_UPDATE_FAILED', 'Failed to save settings');
  return repo.toConnection(updated);
};

export const updateBuild = async (db: Db, subaccountId: string, connectionId: string, buildId: string) => {
  const row = await loadOwned(db, subaccountId, connectionId);
  const agent = await repo.findAgentInSubaccount(db, buildId, subaccountId);
  if (!agent) throw new AppError('BUILD_NOT_FOUND', 'The build does not exist or was deleted', { field: 'buildId' });
  const [updated] = await db
    .update(connections)
    .set({ buildId: agent.id, updatedAt: new Date() })
    .where(eq(connections.id, row.id))
    .returning();
  if (!updated) throw new AppError('CONNECTION_UPDATE_FAILED', 'Failed to update build');
  return repo.toConnection(updated);
};

/** Deploy: live embeds start using the saved settings and build. */
export const deployConnection = async (deps: Deps, subaccountId: string, connectionId: string) => {
  const row = await loadOwned(deps.db, subaccountId, connectionId);
  const [updated] = await deps.db
    .update(connections)
    .set({
      deployedSettings: row.settings,
      deployedBuildId: row.buildId,
      deployedVersion: row.settingsVersion,
      deployedAt: new Date(),
    })
    .where(eq(connections.id, row.id))
    .returning();
  if (!updated) throw new AppError('CONNECTION_UPDATE_FAILED', 'The widget could not be deployed');
  await deps.bus.publish(widgetChangedChannel, { widgetId: updated.widgetId });
  return repo.toConnection(updated);
};

/**
 * Deletes a website widget or block: its embed code stops answering at once in every process, and
 * its Launch state goes with it. Its past conversations stay, in the usage reports and the dashboard.
 */
export const deleteConnection = async (deps: Deps, subaccountId: string, connectionId: string) => {
  const row = await loadOwned(deps.db, subaccountId, connectionId);
  const deleted = await deps.db
    .delete(connections)
    .where(eq(connections.id, row.id))
    .returning({ widgetId: connections.widgetId });
  if (!deleted.length) throw new AppError('CONNECTION_NOT_FOUND', 'Widget not found');
  await deps.bus.publish(widgetChangedChannel, { widgetId: row.widgetId });
};

/** The designer's preview chat: the real agent of the connection's build, on the test channel. */
export const previewChat = async (
  deps: Deps,
  tenant: { subaccountId: string; accountId: string },
  connectionId: string,
  input: { message: string; threadId?: string | null },
) => {
  const row = await loadOwned(deps.db, tenant.subaccountId, connectionId);
  if (!row.buildId) throw new AppError('BUILD_NOT_FOUND', 'No assistant ID found for this build');
  const result = await replyAsAgent(deps, {
    agentId: row.buildId,
    accountId: tenant.accountId,
    subaccountId: tenant.subaccountId,
    threadId: input.threadId ?? null,
    message: input.message,
    channel: 'test',
    channelRef: row.id,
  });
  return { message: result.message, threadId: result.threadId };
};
