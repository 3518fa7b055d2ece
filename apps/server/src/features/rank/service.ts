import { computeRank, type TRankCounts, type TUserRank } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * What an agency has built and run, counted by the database in one statement: deployed agents
 * (distinct agents live on a widget or website block), conversations with real people (widget,
 * website block, demo and API threads with at least one message), passed evaluation answers,
 * demos, and marketplace projects.
 */
export const rankCounts = async (db: Db, accountId: string): Promise<TRankCounts> => {
  const result = await db.execute(sql`
    select
      (select count(distinct coalesce(c.deployed_build_id, c.build_id)) from connections c
        where c.account_id = ${accountId} and c.deployed_at is not null) as "agentsDeployed",
      (select count(*) from threads t join subaccounts s on s.id = t.subaccount_id
        where s.account_id = ${accountId} and t.channel in ('widget', 'website-block', 'demo', 'api')
          and t.message_count > 0) as "conversationsHandled",
      (select count(*) from evaluation_conversations ec join evaluation_runs r on r.id = ec.run_id
        where r.account_id = ${accountId} and ec.passed) as "evaluationsPassed",
      (select count(*) from demos d where d.account_id = ${accountId}) as "demosShared",
      (select count(*) from marketplace_projects m where m.account_id = ${accountId}) as "marketplaceProjects"
  `);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  const row = rows[0] ?? {};
  const n = (key: keyof TRankCounts) => Number(row[key] ?? 0) || 0;
  return {
    agentsDeployed: n('agentsDeployed'),
    conversationsHandled: n('conversationsHandled'),
    evaluationsPassed: n('evaluationsPassed'),
    demosShared: n('demosShared'),
    marketplaceProjects: n('marketplaceProjects'),
  };
};

export const userRank = async (db: Db, accountId: string): Promise<TUserRank> =>
  computeRank(await rankCounts(db, accountId));
