import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, memberships, subaccounts } from '../tenancy/schema';
import type { ConnectionFacts } from './records';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const dateOf = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

/** A page of the sub-accounts the user is a member of (or the API key's one), with role and lock. */
export const memberSubaccounts = async (
  db: Db,
  userId: string,
  options: { onlySubaccountId?: string; page: number; limit: number },
) => {
  const rows = await db
    .select({
      subaccountId: subaccounts.id,
      accountId: subaccounts.accountId,
      name: subaccounts.name,
      locked: subaccounts.locked,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .where(
      and(
        eq(memberships.userId, userId),
        options.onlySubaccountId ? eq(subaccounts.id, options.onlySubaccountId) : undefined,
      ),
    )
    .orderBy(asc(accounts.createdAt), asc(subaccounts.createdAt), asc(subaccounts.name), asc(subaccounts.id))
    .limit(options.limit + 1)
    .offset((options.page - 1) * options.limit);
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
};

interface FactsRow {
  id: string;
  subaccount_id: string;
  type: string;
  name: string;
  build_id: string | null;
  agent_name: string | null;
  deployed_at: unknown;
  deployed_build_id: string | null;
  needs_redeploy: boolean;
  created_at: unknown;
  paused_at: unknown;
  account: Record<string, unknown> | string | null;
  reached: boolean;
  last_failure: string | null;
  locked: boolean;
}

/**
 * The facts of every channel connection of the sub-accounts, in one statement: the connection,
 * its agent, its transport settings (read whole, secrets left out), whether it is paused, whether
 * a visitor or contact has reached it, and the code of its last send when that failed. Each
 * sub-select is one indexed lookup per connection.
 */
export const connectionFacts = async (db: Db, subaccountIds: string[]): Promise<ConnectionFacts[]> => {
  if (!subaccountIds.length) return [];
  const result = await db.execute(sql`
    SELECT c.id, c.subaccount_id, c.type, c.name, c.build_id, ag.name AS agent_name,
      c.deployed_at, c.deployed_build_id,
      (c.deployed_version <> c.settings_version OR c.deployed_build_id IS DISTINCT FROM c.build_id) AS needs_redeploy,
      c.created_at, p.paused_at, s.locked,
      CASE WHEN ca.connection_id IS NULL THEN NULL ELSE
        to_jsonb(ca) - 'secret_encrypted' - 'webhook_token_encrypted' - 'verify_token_encrypted'
          - 'oauth_state_hash' - 'api_key_sid' END AS account,
      CASE WHEN c.type IN ('website-widget', 'website-block') THEN EXISTS (
          SELECT 1 FROM threads t
          WHERE t.subaccount_id = c.subaccount_id AND t.channel IN ('widget', 'website-block')
            AND t.channel_ref = c.widget_id)
        ELSE EXISTS (
          SELECT 1 FROM channel_messages m WHERE m.connection_id = c.id AND m.direction = 'inbound')
      END AS reached,
      (SELECT CASE WHEN m.status = 'failed' THEN coalesce(m.error_code, 'SEND_FAILED') END
         FROM channel_messages m
         WHERE m.connection_id = c.id AND m.direction = 'outbound'
         ORDER BY m.created_at DESC LIMIT 1) AS last_failure
    FROM connections c
    JOIN subaccounts s ON s.id = c.subaccount_id
    LEFT JOIN agents ag ON ag.id = c.build_id
    LEFT JOIN channel_accounts ca ON ca.connection_id = c.id
    LEFT JOIN connection_pauses p ON p.connection_id = c.id
    WHERE c.subaccount_id IN (${sql.join(
      subaccountIds.map((id) => sql`${id}`),
      sql`, `,
    )})
    ORDER BY c.created_at, c.id
    LIMIT 2000
  `);
  return rowsOf<FactsRow>(result).map((row) => ({
    id: row.id,
    subaccountId: row.subaccount_id,
    type: row.type,
    name: row.name,
    buildId: row.build_id,
    agentName: row.agent_name,
    deployedAt: dateOf(row.deployed_at),
    deployedBuildId: row.deployed_build_id,
    needsRedeploy: Boolean(row.needs_redeploy),
    createdAt: dateOf(row.created_at) ?? new Date(0),
    pausedAt: dateOf(row.paused_at),
    account: typeof row.account === 'string' ? JSON.parse(row.account) : row.account,
    reached: Boolean(row.reached),
    lastFailure: row.last_failure ? { errorCode: row.last_failure } : null,
    subaccountLocked: Boolean(row.locked),
  }));
};
