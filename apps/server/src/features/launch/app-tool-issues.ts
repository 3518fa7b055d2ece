import type { TAppToolIssue } from '@switchboard/core';
import { and, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appToolOwnerStates } from '../agents/app-tools';
import { agents } from '../agents/schema';

/**
 * The Launch checklist's app-tool entries: every agent of the sub-accounts with an enabled app tool
 * whose connection (or MCP server) is not connected, grouped by agent and owner. Two statements for
 * the whole page of sub-accounts.
 */
export const appToolIssues = async (db: Db, subaccountIds: string[]): Promise<Map<string, TAppToolIssue[]>> => {
  const bySubaccount = new Map<string, TAppToolIssue[]>();
  if (!subaccountIds.length) return bySubaccount;
  const rows = await db
    .select({ id: agents.id, name: agents.name, subaccountId: agents.subaccountId, enabledTools: agents.enabledTools })
    .from(agents)
    .where(and(inArray(agents.subaccountId, subaccountIds), sql`jsonb_array_length(${agents.enabledTools}) > 0`));
  if (!rows.length) return bySubaccount;
  const states = await appToolOwnerStates(db, subaccountIds);
  for (const agent of rows) {
    const issues = new Map<string, TAppToolIssue>();
    for (const tool of agent.enabledTools) {
      const key = `${tool.source}:${tool.ownerId}`;
      const state = states.get(key);
      if (state?.status === 'connected') continue;
      const issue = issues.get(key) ?? {
        agentId: agent.id,
        agentName: agent.name,
        source: tool.source,
        ownerId: tool.ownerId,
        ownerName: state?.name ?? null,
        sandbox: state?.sandbox ?? false,
        status: state ? state.status : 'not_connected',
        tools: [],
      };
      issue.tools.push(tool.slug);
      issues.set(key, issue);
    }
    if (!issues.size) continue;
    const list = bySubaccount.get(agent.subaccountId) ?? [];
    list.push(...issues.values());
    bySubaccount.set(agent.subaccountId, list);
  }
  return bySubaccount;
};
