/**
 * GET /api/connect/{connectId}/dashboard: a sub-account's figures in one statement, aggregated by
 * the database (GROUP BY, FILTER, date_trunc; periods in UTC: today, the ISO week from Monday, the
 * calendar month; the chart covers the last 30 days). Test and evaluation threads are left out:
 * they are the agency's own, not its clients' visitors.
 */
import { MESSAGE_SOURCES, type TConnectionDashboard, type TMessageSender } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

const SERIES_DAYS = 30;
const PERIOD_KEYS = ['today', 'week', 'month'] as const;
const MESSAGING_LIST = "'sms', 'whatsapp', 'instagram'";
/** Messages of each period by who sent them (fixed names: no input reaches this SQL). */
const SOURCE_COLUMNS = PERIOD_KEYS.flatMap((period) =>
  MESSAGE_SOURCES.map(
    (source) => `coalesce(sum(r.${period}) FILTER (WHERE r.source = '${source}'), 0)::int AS ${source}_${period}`,
  ),
).join(',\n        ');

interface DashboardRow {
  bounds: { now: string; today: string; week: string; month: string } | string;
  channels: unknown;
  widgets: unknown;
  credits: unknown;
  takeovers: number | string;
  evaluations: unknown;
  series: unknown;
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
const iso = (value: string) => new Date(value).toISOString();

export const connectionDashboard = async (
  db: Db,
  tenant: { subaccountId: string; accountId: string },
  /** The moment the figures are for; the database's clock when not given. */
  now?: Date,
): Promise<TConnectionDashboard> => {
  const at = now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
  const statement = sql`
    WITH n AS (SELECT ${at} AS n),
    b AS (
      SELECT n.n,
        date_trunc('day', n.n AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS today,
        date_trunc('week', n.n AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS week,
        date_trunc('month', n.n AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month,
        (date_trunc('day', n.n AT TIME ZONE 'UTC') - ${`${SERIES_DAYS - 1} days`}::interval)
          AT TIME ZONE 'UTC' AS series_start
      FROM n
    ),
    -- One pass over the period's messages (index on sub-account and time), grouped by thread, day
    -- and role before the join, so the thread of each message is looked up once per thread and day.
    per_thread_day AS (
      SELECT m.thread_id, date_trunc('day', m.created_at AT TIME ZONE 'UTC') AS day, m.role,
        count(*) FILTER (WHERE m.created_at >= b.series_start)::int AS in_series,
        count(*) FILTER (WHERE m.created_at >= b.today)::int AS today,
        count(*) FILTER (WHERE m.created_at >= b.week)::int AS week,
        count(*) FILTER (WHERE m.created_at >= b.month)::int AS month,
        count(*) FILTER (WHERE m.created_at >= b.today AND m.role = 'user')::int AS visitor_today
      FROM b, messages m
      WHERE m.subaccount_id = ${tenant.subaccountId}
        AND m.created_at >= least(b.week, b.month, b.series_start) AND m.created_at <= b.n
      GROUP BY 1, 2, 3
    ),
    recent AS (
      SELECT p.*, t.channel, t.channel_ref
      FROM per_thread_day p
      JOIN threads t ON t.id = p.thread_id
      WHERE t.channel NOT IN ('test', 'evaluation')
    ),
    -- Chat channels: their threads' messages (a conversation is a thread with a message).
    threaded AS (
      SELECT r.channel, r.thread_id AS conversation, r.day,
        CASE r.role WHEN 'user' THEN 'received' WHEN 'human' THEN 'person' ELSE 'agent' END AS source,
        r.in_series, r.today, r.week, r.month
      FROM recent r
      WHERE r.channel NOT IN (${sql.raw(MESSAGING_LIST)})
    ),
    -- SMS, WhatsApp and Instagram: every message the channel received or sent (campaigns and
    -- keyword confirmations included, which belong to no agent turn); a conversation is a contact
    -- who wrote in the period.
    messaging AS (
      SELECT c.type AS channel,
        CASE WHEN cm.direction = 'inbound' THEN c.id || ' ' || cm.contact_phone END AS conversation,
        date_trunc('day', cm.created_at AT TIME ZONE 'UTC') AS day,
        CASE WHEN cm.direction = 'inbound' THEN 'received' ELSE coalesce(cm.source, 'agent') END AS source,
        count(*) FILTER (WHERE cm.created_at >= b.series_start)::int AS in_series,
        count(*) FILTER (WHERE cm.created_at >= b.today)::int AS today,
        count(*) FILTER (WHERE cm.created_at >= b.week)::int AS week,
        count(*) FILTER (WHERE cm.created_at >= b.month)::int AS month
      FROM b CROSS JOIN connections c JOIN channel_messages cm ON cm.connection_id = c.id
      WHERE c.subaccount_id = ${tenant.subaccountId} AND c.type IN (${sql.raw(MESSAGING_LIST)})
        AND cm.created_at >= least(b.week, b.month, b.series_start) AND cm.created_at <= b.n
        AND (cm.direction = 'inbound' OR cm.sent_at IS NOT NULL)
      GROUP BY 1, 2, 3, 4
    ),
    counted AS (SELECT * FROM threaded UNION ALL SELECT * FROM messaging),
    channel_counts AS (
      SELECT r.channel,
        sum(r.today)::int AS messages_today,
        count(DISTINCT r.conversation) FILTER (WHERE r.today > 0)::int AS conversations_today,
        sum(r.week)::int AS messages_week,
        count(DISTINCT r.conversation) FILTER (WHERE r.week > 0)::int AS conversations_week,
        sum(r.month)::int AS messages_month,
        count(DISTINCT r.conversation) FILTER (WHERE r.month > 0)::int AS conversations_month,
        ${sql.raw(SOURCE_COLUMNS)}
      FROM counted r
      GROUP BY r.channel
    ),
    series AS (
      SELECT to_char(r.day, 'YYYY-MM-DD') AS day, r.channel, sum(r.in_series)::int AS messages
      FROM counted r
      WHERE r.in_series > 0
      GROUP BY 1, 2
    ),
    widget_today AS (
      SELECT r.channel_ref, sum(r.visitor_today)::int AS messages
      FROM recent r
      WHERE r.visitor_today > 0 AND r.channel IN ('widget', 'website-block')
      GROUP BY r.channel_ref
    ),
    widgets AS (
      SELECT c.id AS "connectionId", c.name, c.type, coalesce(w.messages, 0) AS "todayMessages",
        coalesce((coalesce(c.deployed_settings, c.settings)->>'dailyLimit')::int, 200) AS "dailyLimit"
      FROM connections c
      LEFT JOIN widget_today w ON w.channel_ref = c.widget_id
      WHERE c.subaccount_id = ${tenant.subaccountId} AND c.type IN ('website-widget', 'website-block')
      ORDER BY c.created_at, c.id
      LIMIT 100
    ),
    last_runs AS (
      SELECT DISTINCT ON (r.agent_id) r.agent_id, r.id, r.name, r.finished_at
      FROM evaluation_runs r
      WHERE r.subaccount_id = ${tenant.subaccountId} AND r.status = 'completed' AND r.agent_id IS NOT NULL
      ORDER BY r.agent_id, r.finished_at DESC NULLS LAST, r.created_at DESC
    ),
    evaluations AS (
      SELECT lr.agent_id AS "agentId", a.name AS "agentName", lr.id AS "runId", lr.name AS "runName",
        lr.finished_at AS "finishedAt", counts.passed, counts.graded
      FROM last_runs lr
      JOIN agents a ON a.id = lr.agent_id
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE ec.outcome = 'passed')::int AS passed,
          count(*) FILTER (WHERE ec.outcome IN ('passed', 'failed'))::int AS graded
        FROM evaluation_conversations ec WHERE ec.run_id = lr.id
      ) counts
      ORDER BY a.name, lr.agent_id
    )
    SELECT
      (SELECT json_build_object('now', b.n, 'today', b.today, 'week', b.week, 'month', b.month) FROM b) AS bounds,
      (SELECT coalesce(json_agg(cc ORDER BY cc.channel), '[]'::json) FROM channel_counts cc) AS channels,
      (SELECT coalesce(json_agg(w), '[]'::json) FROM widgets w) AS widgets,
      (SELECT json_build_object(
          'today', coalesce(sum(u.charged) FILTER (WHERE u.created_at >= b.today), 0),
          'month', coalesce(sum(u.charged), 0))
        FROM b, usage_logs u
        WHERE u.account_id = ${tenant.accountId} AND u.subaccount_id = ${tenant.subaccountId}
          AND u.created_at >= b.month AND u.created_at <= b.n) AS credits,
      (SELECT count(*)::int FROM threads t
        WHERE t.subaccount_id = ${tenant.subaccountId} AND t.handled_by_user_id IS NOT NULL) AS takeovers,
      (SELECT coalesce(json_agg(e), '[]'::json) FROM evaluations e) AS evaluations,
      (SELECT coalesce(json_agg(s ORDER BY s.day, s.channel), '[]'::json) FROM series s) AS series
  `;
  // The period's messages (tens of thousands for a busy client) are grouped in memory rather than
  // spilled to disk: the embedded database keeps no planner statistics, so PostgreSQL's default
  // 4 MB would sort them on disk.
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    return tx.execute(statement);
  });
  const row = (result as unknown as { rows: DashboardRow[] }).rows[0] as DashboardRow;
  const bounds = json<{ now: string; today: string; week: string; month: string }>(row.bounds);
  const channels = json<Record<string, number | string>[]>(row.channels);
  const credits = json<{ today: number | string; month: number | string }>(row.credits);
  const evaluations = json<
    {
      agentId: string;
      agentName: string;
      runId: string;
      runName: string;
      finishedAt: string | null;
      passed: number;
      graded: number;
    }[]
  >(row.evaluations);
  const credit = (value: number | string) => Math.round(Number(value) * 1e6) / 1e6;
  return {
    subaccountId: tenant.subaccountId,
    generatedAt: iso(bounds.now),
    periods: { today: iso(bounds.today), week: iso(bounds.week), month: iso(bounds.month) },
    channels: channels.map((entry) => {
      const counts = (period: (typeof PERIOD_KEYS)[number]) => ({
        conversations: Number(entry[`conversations_${period}`]),
        messages: Number(entry[`messages_${period}`]),
        sources: Object.fromEntries(
          MESSAGE_SOURCES.map((source) => [source, Number(entry[`${source}_${period}`])]),
        ) as Record<TMessageSender, number>,
      });
      return { channel: String(entry.channel), today: counts('today'), week: counts('week'), month: counts('month') };
    }),
    widgets: json<TConnectionDashboard['widgets']>(row.widgets),
    credits: { today: credit(credits.today), month: credit(credits.month) },
    openTakeovers: Number(row.takeovers),
    evaluations: evaluations.map((entry) => ({
      ...entry,
      finishedAt: entry.finishedAt ? iso(entry.finishedAt) : null,
      passRate: entry.graded > 0 ? entry.passed / entry.graded : null,
    })),
    series: json<TConnectionDashboard['series']>(row.series),
  };
};
