/**
 * GET /api/usage/breakdown: the account's metered usage aggregated in the database by day,
 * sub-account, agent, channel or model between two dates (UTC, both included), so an agency can
 * rebill each client. One GROUP BY over usage_logs (index on account and time). A caller who does
 * not manage the account sees only the calls of their own sub-accounts, whatever the grouping.
 */
import type { TUsageBreakdownQuery, TUsageBreakdownRow } from '@switchboard/core';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { type AccountView, visibleTo } from '../../platform/account-scope';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { subaccounts } from '../tenancy/schema';
import type { AgentDirectory } from './agent-directory';
import { usageLogs } from './schema';

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

export const usageBreakdown = async (
  deps: Deps,
  view: AccountView,
  query: TUsageBreakdownQuery,
  agents: AgentDirectory,
) => {
  const { accountId } = view;
  const to = query.to ? new Date(`${query.to}T00:00:00Z`) : new Date(new Date().toISOString().slice(0, 10));
  const from = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(to.getTime() - 29 * DAY_MS);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
    throw new AppError('VALIDATION_ERROR', 'Use a date such as 2026-01-31', { field: 'from' });
  }
  if ((to.getTime() - from.getTime()) / DAY_MS >= MAX_DAYS) {
    throw new AppError('VALIDATION_ERROR', `Choose at most ${MAX_DAYS} days`, { field: 'from' });
  }
  const key = {
    day: sql<string>`to_char(${usageLogs.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
    subaccount: sql<string | null>`${usageLogs.subaccountId}`,
    agent: sql<string | null>`${usageLogs.agentId}`,
    channel: sql<string | null>`${usageLogs.channel}`,
    model: sql<string | null>`${usageLogs.model}`,
  }[query.groupBy];
  const rows = await deps.db
    .select({
      key,
      calls: sql<string>`count(*)`,
      inputTokens: sql<string>`coalesce(sum(${usageLogs.inputTokens}), 0)`,
      outputTokens: sql<string>`coalesce(sum(${usageLogs.outputTokens}), 0)`,
      credits: sql<string>`coalesce(sum(${usageLogs.credits}), 0)`,
      charged: sql<string>`coalesce(sum(${usageLogs.charged}), 0)`,
    })
    .from(usageLogs)
    .where(
      and(
        eq(usageLogs.accountId, accountId),
        visibleTo(view, usageLogs.subaccountId),
        gte(usageLogs.createdAt, from),
        lt(usageLogs.createdAt, new Date(to.getTime() + DAY_MS)),
      ),
    )
    .groupBy(key)
    .orderBy(key);
  // Names of the sub-accounts and agents grouped by (one read each, only for those groups).
  const ids = rows.map((row) => row.key).filter((id): id is string => Boolean(id));
  const names = new Map<string, string>();
  if (ids.length && query.groupBy === 'subaccount') {
    for (const row of await deps.db
      .select({ id: subaccounts.id, name: subaccounts.name })
      .from(subaccounts)
      .where(and(eq(subaccounts.accountId, accountId), visibleTo(view, subaccounts.id))))
      names.set(row.id, row.name);
  }
  if (ids.length && query.groupBy === 'agent') {
    for (const [id, name] of await agents.namesIn(deps.db, view)) names.set(id, name);
  }
  const result: TUsageBreakdownRow[] = rows.map((row) => ({
    key: row.key,
    label: row.key ? (names.get(row.key) ?? row.key) : query.groupBy === 'channel' ? 'Other' : 'None',
    calls: Number(row.calls),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    credits: Math.round(Number(row.credits) * 1e6) / 1e6,
    charged: Math.round(Number(row.charged) * 1e6) / 1e6,
  }));
  return {
    from: from.toISOString().slice(0, 10),
    to: to.toISOString().slice(0, 10),
    groupBy: query.groupBy,
    rows: result,
  };
};
