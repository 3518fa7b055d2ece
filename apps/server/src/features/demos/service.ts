import {
  fitText,
  type TCreateDemoRequest,
  type TDemo,
  type TDemoListResponse,
  type TDemoSettings,
  type TPublicDemo,
  type TUpdateDemoRequest,
  ZCreateDemoRequest,
  ZDemoSettings,
  ZUpdateDemoRequest,
} from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import { agents } from '../agents/schema';
import * as repo from './repo';
import { type DemoRow, demos } from './schema';

const DEMO_NOT_FOUND = 'Demo not found';

const toDemo = (row: DemoRow, agent: repo.AgentSummary | undefined): TDemo => ({
  demoId: row.id,
  name: row.name,
  type: row.type,
  logoUrl: row.logoUrl,
  avatarUrl: row.avatarUrl,
  logoWidth: row.logoWidth,
  requestCount: row.requestCount,
  requestLimit: row.requestLimit,
  buildId: row.buildId,
  build: agent
    ? {
        buildId: agent.id,
        provider: agent.provider,
        assistantId: agent.id,
        openrouterModel: agent.provider === 'openrouter' ? agent.model : null,
        model: agent.model,
        apiKeyId: null,
      }
    : null,
  settings: row.settings,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** What anyone with the link may see: no account, sub-account, agent or model details. */
export const toPublicDemo = (row: DemoRow): TPublicDemo => ({
  demoId: row.id,
  name: row.name,
  type: row.type,
  logoUrl: row.logoUrl,
  avatarUrl: row.avatarUrl,
  logoWidth: row.logoWidth,
  requestCount: row.requestCount,
  requestLimit: row.requestLimit,
  settings: row.settings,
});

const withAgent = async (db: Db, row: DemoRow) =>
  toDemo(row, row.buildId ? (await repo.agentsByIds(db, [row.buildId])).get(row.buildId) : undefined);

/** The agent must live in the same sub-account as the demo. */
const assertAgentInSubaccount = async (db: Db, subaccountId: string, buildId: string) => {
  const rows = await db
    .select({
      id: agents.id,
      name: agents.name,
      firstMessage: agents.firstMessage,
      suggestedResponses: agents.suggestedResponses,
    })
    .from(agents)
    .where(and(eq(agents.id, buildId), eq(agents.subaccountId, subaccountId)))
    .limit(1);
  if (!rows[0]) throw new AppError('AGENT_NOT_FOUND', 'Agent not found', { field: 'buildId' });
  return rows[0];
};

/**
 * A new demo speaks as its agent: the assistant's name, welcome message and suggestions come from
 * the agent where the creator left the section 3 defaults (the request arrives with its defaults
 * filled in, so a default value and an omitted one are the same).
 */
const withAgentVoice = (
  settings: TDemoSettings,
  agent: { name: string; firstMessage: string; suggestedResponses: string[] },
): TDemoSettings => {
  const defaults = ZDemoSettings.parse({});
  const suggestions = agent.suggestedResponses.filter((text) => text.trim()).slice(0, 3);
  return {
    ...settings,
    ...(settings.assistantName === defaults.assistantName && agent.name
      ? { assistantName: fitText(agent.name, 80) }
      : {}),
    ...(settings.welcomeMessage === defaults.welcomeMessage && agent.firstMessage.trim()
      ? { welcomeMessage: fitText(agent.firstMessage.trim(), 1000) }
      : {}),
    ...(settings.suggestedResponses.length === 0 && suggestions.length
      ? { suggestedResponses: suggestions.map((text) => fitText(text.trim(), 120)) }
      : {}),
  };
};

export const listDemos = async (
  db: Db,
  subaccountId: string,
  page: number,
  limit: number,
): Promise<TDemoListResponse> => {
  const { rows, total } = await repo.listDemos(db, subaccountId, page, limit);
  const agentMap = await repo.agentsByIds(
    db,
    rows.flatMap((row) => (row.buildId ? [row.buildId] : [])),
  );
  return {
    demos: rows.map((row) => toDemo(row, row.buildId ? agentMap.get(row.buildId) : undefined)),
    page,
    limit,
    total,
  };
};

export const getDemo = async (db: Db, subaccountId: string, demoId: string): Promise<TDemo> => {
  const row = await repo.findDemoInSubaccount(db, subaccountId, demoId);
  if (!row) throw new AppError('NOT_FOUND', DEMO_NOT_FOUND);
  return withAgent(db, row);
};

export const createDemo = async (db: Db, tenant: Tenant, userId: string, input: TCreateDemoRequest) => {
  const data = ZCreateDemoRequest.parse(input);
  const agent = await assertAgentInSubaccount(db, tenant.subaccountId, data.buildId);
  data.settings = withAgentVoice(data.settings, agent);
  const rows = await db
    .insert(demos)
    .values({
      id: newId('demo'),
      accountId: tenant.accountId,
      subaccountId: tenant.subaccountId,
      buildId: data.buildId,
      name: data.name,
      type: data.type,
      logoUrl: data.logoUrl,
      avatarUrl: data.avatarUrl,
      logoWidth: data.logoWidth,
      requestLimit: data.requestLimit,
      settings: data.settings,
      createdBy: userId,
    })
    .returning();
  return withAgent(db, rows[0] as DemoRow);
};

export const updateDemo = async (db: Db, subaccountId: string, demoId: string, input: TUpdateDemoRequest) => {
  const data = ZUpdateDemoRequest.parse(input);
  if (data.buildId) await assertAgentInSubaccount(db, subaccountId, data.buildId);
  const rows = await db
    .update(demos)
    .set({ ...data, updatedAt: new Date() })
    .where(and(eq(demos.id, demoId), eq(demos.subaccountId, subaccountId)))
    .returning();
  if (!rows[0]) throw new AppError('NOT_FOUND', DEMO_NOT_FOUND);
  return withAgent(db, rows[0]);
};

export const resetRequestCount = async (db: Db, subaccountId: string, demoId: string) => {
  const rows = await db
    .update(demos)
    .set({ requestCount: 0, updatedAt: new Date() })
    .where(and(eq(demos.id, demoId), eq(demos.subaccountId, subaccountId)))
    .returning();
  if (!rows[0]) throw new AppError('NOT_FOUND', DEMO_NOT_FOUND);
  return withAgent(db, rows[0]);
};

export const deleteDemo = async (db: Db, subaccountId: string, demoId: string) => {
  const rows = await db
    .delete(demos)
    .where(and(eq(demos.id, demoId), eq(demos.subaccountId, subaccountId)))
    .returning({ id: demos.id });
  if (!rows[0]) throw new AppError('NOT_FOUND', DEMO_NOT_FOUND);
};

export const getPublicDemo = async (db: Db, demoId: string): Promise<TPublicDemo> => {
  const row = await repo.findDemo(db, demoId);
  if (!row) throw new AppError('NOT_FOUND', 'Demo configuration not found. Please contact the demo creator.');
  return toPublicDemo(row);
};
