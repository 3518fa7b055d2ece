import { SANDBOX_NOTICE, type TCampaign, type TCampaignAudience } from '@switchboard/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { papa } from '../../platform/csv';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { sequenceReport } from './campaign-steps';
import { ownedChannel } from './connections';
import { campaignRecipients, campaigns, channelAccounts, channelMessages, contacts } from './schema';

/** A campaign's report: its figures, failures, state, timeline and CSV export. */

type CampaignRow = typeof campaigns.$inferSelect;

const FIGURE_COLUMNS = sql`
  count(*)::int AS total,
  count(*) FILTER (WHERE r.status IN ('queued', 'sending'))::int AS queued,
  count(*) FILTER (WHERE r.sent_at IS NOT NULL)::int AS sent,
  count(*) FILTER (WHERE r.status = 'delivered')::int AS delivered,
  count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
  count(*) FILTER (WHERE r.replied_at IS NOT NULL)::int AS replied,
  count(*) FILTER (WHERE r.opted_out_at IS NOT NULL)::int AS opted_out,
  count(*) FILTER (WHERE r.status = 'skipped')::int AS skipped,
  count(*) FILTER (WHERE r.status = 'skipped' AND r.skip_reason IN ('OPTED_OUT', 'SUPPRESSED'))::int AS suppressed,
  count(*) FILTER (WHERE r.status = 'unconfirmed')::int AS unconfirmed`;

type FigureRow = {
  campaign_id: string;
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  replied: number;
  opted_out: number;
  skipped: number;
  suppressed: number;
  unconfirmed: number;
};

/**
 * Figures and failure codes of several campaigns in grouped queries (never one per campaign), and
 * which of them ran on the sandbox (a message of theirs went through it, or their connection is one).
 */
const figuresOf = async (db: Db, ids: string[]) => {
  if (!ids.length)
    return {
      figures: new Map<string, FigureRow>(),
      failures: new Map<string, { errorCode: string; count: number }[]>(),
      sandbox: new Set<string>(),
    };
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [figureRows, failureRows, sandboxRows] = await Promise.all([
    db.execute(
      sql`SELECT r.campaign_id, ${FIGURE_COLUMNS} FROM ${campaignRecipients} r WHERE r.campaign_id IN (${idList}) GROUP BY r.campaign_id`,
    ),
    db.execute(sql`
      SELECT campaign_id, error_code, count(*)::int AS n FROM ${campaignRecipients}
      WHERE campaign_id IN (${idList}) AND status = 'failed' GROUP BY campaign_id, error_code ORDER BY n DESC`),
    db.execute(sql`
      SELECT c.id FROM ${campaigns} c JOIN ${channelAccounts} a ON a.connection_id = c.connection_id
      WHERE c.id IN (${idList}) AND (a.transport = 'sandbox'
        OR EXISTS (SELECT 1 FROM ${channelMessages} m WHERE m.campaign_id = c.id AND m.transport = 'sandbox'))`),
  ]);
  const figures = new Map(rowsOf<FigureRow>(figureRows).map((row) => [row.campaign_id, row]));
  const failures = new Map<string, { errorCode: string; count: number }[]>();
  for (const row of (
    failureRows as unknown as { rows: { campaign_id: string; error_code: string | null; n: number }[] }
  ).rows) {
    const list = failures.get(row.campaign_id) ?? [];
    list.push({ errorCode: row.error_code ?? 'UNKNOWN', count: row.n });
    failures.set(row.campaign_id, list);
  }
  return { figures, failures, sandbox: new Set(rowsOf<{ id: string }>(sandboxRows).map((row) => row.id)) };
};

export const toCampaign = (
  row: CampaignRow,
  figures?: FigureRow,
  failures?: { errorCode: string; count: number }[],
  sandbox = false,
): TCampaign => ({
  campaignId: row.id,
  connectionId: row.connectionId,
  channel: row.channel,
  name: row.name,
  status: row.status,
  hold:
    row.status === 'paused' && row.holdReason
      ? { reason: row.holdReason, code: row.holdCode ?? 'MESSAGE_SEND_FAILED', message: row.holdMessage ?? '' }
      : null,
  audience: row.audience as TCampaignAudience,
  message: row.message,
  whatsappTemplate: row.whatsappTemplate ?? null,
  mediaUrl: row.mediaUrl,
  sendAt: row.sendAt,
  scheduledFor: row.scheduledFor?.toISOString() ?? null,
  timeZone: row.timeZone,
  quietHours: row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
  figures: {
    total: figures?.total ?? 0,
    queued: figures?.queued ?? 0,
    sent: figures?.sent ?? 0,
    delivered: figures?.delivered ?? 0,
    failed: figures?.failed ?? 0,
    replied: figures?.replied ?? 0,
    optedOut: figures?.opted_out ?? 0,
    skipped: figures?.skipped ?? 0,
    suppressed: figures?.suppressed ?? 0,
    unconfirmed: figures?.unconfirmed ?? 0,
  },
  failures: failures ?? [],
  sandbox,
  createdAt: row.createdAt.toISOString(),
  startedAt: row.startedAt?.toISOString() ?? null,
  completedAt: row.completedAt?.toISOString() ?? null,
});

export const ownedCampaign = async (db: Db | Tx, subaccountId: string, campaignId: string, lock = false) => {
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.subaccountId, subaccountId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('CAMPAIGN_NOT_FOUND', 'The campaign does not exist or was deleted.');
  return row;
};

export const getCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const [{ figures, failures, sandbox }, sequence] = await Promise.all([
    figuresOf(deps.db, [row.id]),
    sequenceReport(deps.db, row),
  ]);
  return { ...toCampaign(row, figures.get(row.id), failures.get(row.id), sandbox.has(row.id)), sequence };
};

export const listCampaigns = async (deps: Deps, subaccountId: string, connectionId: string) => {
  await ownedChannel(deps.db, subaccountId, connectionId);
  const rows = await deps.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.subaccountId, subaccountId), eq(campaigns.connectionId, connectionId)))
    .orderBy(desc(campaigns.createdAt))
    .limit(100);
  const { figures, failures, sandbox } = await figuresOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return {
    campaigns: rows.map((row) => toCampaign(row, figures.get(row.id), failures.get(row.id), sandbox.has(row.id))),
  };
};

/** Sent, delivered, failed and replied per minute, for the chart. */
export const campaignTimeline = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const result = await deps.db.execute(sql`
    SELECT to_char(m, 'YYYY-MM-DD"T"HH24:MI"Z"') AS minute,
      sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(failed)::int AS failed, sum(replied)::int AS replied
    FROM (
      SELECT date_trunc('minute', sent_at AT TIME ZONE 'UTC') AS m, 1 AS sent, 0 AS delivered, 0 AS failed, 0 AS replied
        FROM ${campaignRecipients} WHERE campaign_id = ${row.id} AND sent_at IS NOT NULL
      UNION ALL SELECT date_trunc('minute', delivered_at AT TIME ZONE 'UTC'), 0, 1, 0, 0
        FROM ${campaignRecipients} WHERE campaign_id = ${row.id} AND delivered_at IS NOT NULL
      UNION ALL SELECT date_trunc('minute', updated_at AT TIME ZONE 'UTC'), 0, 0, 1, 0
        FROM ${campaignRecipients} WHERE campaign_id = ${row.id} AND status = 'failed'
      UNION ALL SELECT date_trunc('minute', replied_at AT TIME ZONE 'UTC'), 0, 0, 0, 1
        FROM ${campaignRecipients} WHERE campaign_id = ${row.id} AND replied_at IS NOT NULL
    ) AS events GROUP BY m ORDER BY m LIMIT 1440`);
  return {
    points: (
      result as unknown as {
        rows: { minute: string; sent: number; delivered: number; failed: number; replied: number }[];
      }
    ).rows,
  };
};

/** A cell that a spreadsheet would run as a formula is kept as text. */
const safeCell = (value: string | null) => (value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? ''));

export const exportCampaignCsv = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const rows = await deps.db
    .select({
      phone: campaignRecipients.phone,
      name: contacts.name,
      status: campaignRecipients.status,
      errorCode: campaignRecipients.errorCode,
      skipReason: campaignRecipients.skipReason,
      sentAt: campaignRecipients.sentAt,
      deliveredAt: campaignRecipients.deliveredAt,
      repliedAt: campaignRecipients.repliedAt,
      optedOutAt: campaignRecipients.optedOutAt,
      transport: channelMessages.transport,
    })
    .from(campaignRecipients)
    .leftJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .leftJoin(channelMessages, eq(channelMessages.id, campaignRecipients.messageId))
    .where(eq(campaignRecipients.campaignId, row.id))
    .orderBy(campaignRecipients.phone);
  const iso = (value: Date | null) => value?.toISOString() ?? '';
  const csv = papa().unparse({
    fields: [
      'phone',
      'name',
      'status',
      'error_code',
      'skip_reason',
      'sent_at',
      'delivered_at',
      'replied_at',
      'opted_out_at',
      'note',
    ],
    data: rows.map((r) => [
      r.phone,
      safeCell(r.name),
      r.status,
      r.errorCode ?? '',
      r.skipReason ?? '',
      iso(r.sentAt),
      iso(r.deliveredAt),
      iso(r.repliedAt),
      iso(r.optedOutAt),
      // A sandbox message never left the server: the file says so on its row.
      r.transport === 'sandbox' ? SANDBOX_NOTICE : '',
    ]),
  });
  return { name: row.name, csv };
};
