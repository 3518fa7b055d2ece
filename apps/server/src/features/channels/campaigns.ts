import {
  SANDBOX_NOTICE,
  type TCampaign,
  type TCampaignAudience,
  type TCampaignInput,
  templateVariables,
  zonedLocalToUtc,
} from '@switchboard/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { type Db, rowsOf, type Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { enqueueJob } from '../../platform/jobs';
import { BUILT_IN_VARIABLES } from './campaign-render';
import { type Channel, ownedChannel } from './connections';
import { messagingSettings } from './contacts';
import { checkMedia } from './media';
import { refuseSandboxOff } from './sandbox-mode';
import { campaignRecipients, campaigns, channelAccounts, channelMessages, contacts } from './schema';
import { suppressedSql } from './suppressions';

export const CAMPAIGN_DISPATCH_JOB = 'campaign:dispatch';
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
  count(*) FILTER (WHERE r.status = 'skipped' AND r.skip_reason = 'OPTED_OUT')::int AS suppressed`;

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

const toCampaign = (
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
  const { figures, failures, sandbox } = await figuresOf(deps.db, [row.id]);
  return toCampaign(row, figures.get(row.id), failures.get(row.id), sandbox.has(row.id));
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

/** The variables a message uses must be contact fields: built-in or an imported column. */
const checkVariables = async (db: Db, subaccountId: string, input: TCampaignInput, channel: 'sms' | 'whatsapp') => {
  if (channel === 'sms' && !input.message)
    throw new AppError('VALIDATION_ERROR', 'Write the message', { field: 'message' });
  if (channel === 'whatsapp' && !input.message && !input.whatsappTemplate)
    throw new AppError('VALIDATION_ERROR', 'Write the message or pick an approved template', { field: 'message' });
  if (channel === 'sms' && input.whatsappTemplate)
    throw new AppError('VALIDATION_ERROR', 'Templates are for WhatsApp campaigns', { field: 'whatsappTemplate' });
  const used = [
    ...templateVariables(input.message),
    ...(input.whatsappTemplate ? templateVariables(input.whatsappTemplate.body) : []),
  ];
  const unknown = used.filter((name) => !(BUILT_IN_VARIABLES as readonly string[]).includes(name));
  if (!unknown.length) return;
  const result = await db.execute(
    sql`SELECT DISTINCT jsonb_object_keys(attributes) AS key FROM ${contacts} WHERE subaccount_id = ${subaccountId} LIMIT 200`,
  );
  const known = new Set((result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key));
  const missing = unknown.filter((name) => !known.has(name));
  if (missing.length)
    throw new AppError(
      'VALIDATION_ERROR',
      `{{${missing[0]}}} is not a contact field. Use {{first_name}}, {{name}}, {{phone}} or a column imported with the contacts.`,
      {
        field:
          input.whatsappTemplate && templateVariables(input.whatsappTemplate.body).includes(missing[0] as string)
            ? 'whatsappTemplate.body'
            : 'message',
      },
    );
};

const scheduleOf = (input: TCampaignInput, timeZone: string) => {
  if (!input.sendAt) return null;
  const at = zonedLocalToUtc(input.sendAt, timeZone);
  if (Number.isNaN(at.getTime()))
    throw new AppError('VALIDATION_ERROR', 'Pick a valid date and time', { field: 'sendAt' });
  return at;
};

export const createCampaign = async (deps: Deps, subaccountId: string, connectionId: string, input: TCampaignInput) => {
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  const type = channel.connection.type;
  if (type === 'instagram')
    throw new AppError(
      'VALIDATION_ERROR',
      'Campaigns are for SMS and WhatsApp agents: Instagram allows messages only within 24 hours of the contact writing.',
      { field: 'connectionId' },
    );
  await checkVariables(deps.db, subaccountId, input, type);
  if (input.mediaUrl) await checkMedia(deps, input.mediaUrl, 'mediaUrl');
  const settings = await messagingSettings(deps.db, subaccountId);
  const quiet = input.quietHours === undefined ? settings.quietHours : input.quietHours;
  const [row] = await deps.db
    .insert(campaigns)
    .values({
      id: newId('campaign'),
      subaccountId,
      connectionId,
      channel: type,
      name: input.name,
      audience: input.audience,
      message: input.message,
      whatsappTemplate: input.whatsappTemplate ?? null,
      mediaUrl: input.mediaUrl ?? null,
      sendAt: input.sendAt ?? null,
      scheduledFor: scheduleOf(input, settings.timeZone),
      timeZone: settings.timeZone,
      quietStart: quiet?.start ?? null,
      quietEnd: quiet?.end ?? null,
    })
    .returning();
  return toCampaign(row as CampaignRow, undefined, undefined, channel.account.transport === 'sandbox');
};

const FINAL = ['completed', 'cancelled'];
const alreadyCompleted = () =>
  new AppError(
    'CAMPAIGN_ALREADY_COMPLETED',
    'This campaign has already completed. Create a new campaign to send again.',
  );

export const updateCampaign = async (deps: Deps, subaccountId: string, campaignId: string, input: TCampaignInput) => {
  const current = await ownedCampaign(deps.db, subaccountId, campaignId);
  if (FINAL.includes(current.status)) throw alreadyCompleted();
  if (current.status !== 'draft')
    throw new AppError('CONFLICT', 'Only a draft can be edited. Pause or cancel the campaign first.', {
      field: 'status',
    });
  await checkVariables(deps.db, subaccountId, input, current.channel);
  if (input.mediaUrl) await checkMedia(deps, input.mediaUrl, 'mediaUrl');
  await deps.db
    .update(campaigns)
    .set({
      name: input.name,
      audience: input.audience,
      message: input.message,
      whatsappTemplate: input.whatsappTemplate ?? null,
      mediaUrl: input.mediaUrl ?? null,
      sendAt: input.sendAt ?? null,
      scheduledFor: scheduleOf(input, current.timeZone),
      quietStart: input.quietHours?.start ?? null,
      quietEnd: input.quietHours?.end ?? null,
      updatedAt: new Date(),
    })
    .where(eq(campaigns.id, campaignId));
  return getCampaign(deps, subaccountId, campaignId);
};

const dispatchJob = (deps: Deps, row: CampaignRow, round: number, runAt: Date, tx: Tx) =>
  enqueueJob(
    deps,
    {
      type: CAMPAIGN_DISPATCH_JOB,
      payload: { campaignId: row.id },
      subaccountId: row.subaccountId,
      runAt,
      maxAttempts: 10,
      idempotencyKey: `campaign:${row.id}:${round}`,
    },
    tx,
  );

/** The audience as a condition on `contacts AS c`, for statements written in SQL. */
export const audienceSql = (subaccountId: string, audience: TCampaignAudience) => {
  if (audience.type === 'tags')
    return sql`c.subaccount_id = ${subaccountId} AND c.tags && ${sql.param(audience.tags)}::text[]`;
  if (audience.type === 'list')
    return sql`c.subaccount_id = ${subaccountId} AND c.id = ANY(${sql.param(audience.contactIds)}::text[])`;
  return sql`c.subaccount_id = ${subaccountId}`;
};

/** How a variable's value is read from `contacts AS c` (empty = missing). */
const variableSql = (name: string) => {
  if (name === 'phone') return sql`c.phone`;
  if (name === 'name' || name === 'first_name') return sql`coalesce(trim(c.name), '')`;
  return sql`coalesce(trim(c.attributes ->> ${name}), '')`;
};

/**
 * Refuses a start when the audience is empty or a subscribed contact lacks a variable's value:
 * one grouped query, whatever the audience's size.
 */
const checkAudience = async (tx: Tx, row: CampaignRow, channel: Channel) => {
  const audience = audienceSql(row.subaccountId, row.audience as TCampaignAudience);
  const subscribed = sql`NOT ${suppressedSql(channel, sql`c.phone`)}`;
  const names = [
    ...new Set([
      ...templateVariables(row.message),
      ...(row.whatsappTemplate ? templateVariables(row.whatsappTemplate.body) : []),
    ]),
  ];
  const lacking = names.length
    ? sql.join(
        names.map((name) => sql`count(*) FILTER (WHERE ${subscribed} AND ${variableSql(name)} = '')::int`),
        sql`, `,
      )
    : sql`0`;
  const firstLacking = names.length
    ? sql`(SELECT c.phone FROM ${contacts} c WHERE ${audience} AND ${subscribed} AND (${sql.join(
        names.map((name) => sql`${variableSql(name)} = ''`),
        sql` OR `,
      )}) LIMIT 1)`
    : sql`NULL`;
  const result = await tx.execute(
    sql`SELECT count(*)::int AS total, ARRAY[${lacking}] AS lacking, ${firstLacking} AS example FROM ${contacts} c WHERE ${audience}`,
  );
  const [stats] = (result as unknown as { rows: { total: number; lacking: number[]; example: string | null }[] }).rows;
  if (!stats?.total)
    throw new AppError('VALIDATION_ERROR', 'No contact matches this audience. Import contacts or pick other tags.', {
      field: 'audience',
    });
  const index = names.findIndex((_, i) => (stats.lacking[i] ?? 0) > 0);
  if (index >= 0) {
    const count = stats.lacking[index] as number;
    throw new AppError(
      'VALIDATION_ERROR',
      `${count} ${count === 1 ? 'contact has' : 'contacts have'} no value for {{${names[index]}}} (for example ${stats.example}). Fill it in, or leave those contacts out of the audience.`,
      { field: 'message' },
    );
  }
};

/**
 * Moves a campaign into its next dispatch round: scheduled when its start time is still ahead and it
 * has never sent, sending otherwise; the round's dispatch job is written in the same transaction.
 */
const scheduleDispatchRound = async (deps: Deps, tx: Tx, row: CampaignRow) => {
  const now = new Date();
  const later = !row.startedAt && row.scheduledFor !== null && row.scheduledFor.getTime() > now.getTime();
  const round = row.dispatchRound + 1;
  await tx
    .update(campaigns)
    .set({
      status: later ? 'scheduled' : 'sending',
      startedAt: row.startedAt ?? (later ? null : now),
      dispatchRound: round,
      updatedAt: now,
    })
    .where(eq(campaigns.id, row.id));
  await dispatchJob(deps, row, round, later ? (row.scheduledFor as Date) : now, tx);
};

/** The connection a campaign sends through; refused where it is a sandbox and the sandbox is off. */
const campaignChannel = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const { connectionId } = await ownedCampaign(deps.db, subaccountId, campaignId);
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  refuseSandboxOff(deps.env, channel.account.transport);
  return channel;
};

/**
 * Starts a draft: checks the audience (not empty, every variable has a value), then writes the new
 * state and the dispatch job in one short transaction. The dispatch job writes the recipients in
 * small batches (opted-out numbers as skipped) before it sends. Started twice at once, the second
 * start finds it no longer a draft.
 */
export const startCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const channel = await campaignChannel(deps, subaccountId, campaignId);
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (FINAL.includes(row.status)) throw alreadyCompleted();
    if (row.status !== 'draft')
      throw new AppError('CONFLICT', 'The campaign has already been started.', { field: 'status' });
    await checkAudience(tx, row, channel);
    await scheduleDispatchRound(deps, tx, row);
  });
  return getCampaign(deps, subaccountId, campaignId);
};

export const pauseCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (FINAL.includes(row.status)) throw alreadyCompleted();
    if (row.status !== 'sending' && row.status !== 'scheduled')
      throw new AppError('CONFLICT', 'Only a sending or scheduled campaign can be paused.', { field: 'status' });
    await tx.update(campaigns).set({ status: 'paused', updatedAt: new Date() }).where(eq(campaigns.id, row.id));
  });
  return getCampaign(deps, subaccountId, campaignId);
};

export const resumeCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  await campaignChannel(deps, subaccountId, campaignId);
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (FINAL.includes(row.status)) throw alreadyCompleted();
    if (row.status !== 'paused')
      throw new AppError('CONFLICT', 'Only a paused campaign can be resumed.', { field: 'status' });
    await scheduleDispatchRound(deps, tx, row);
  });
  return getCampaign(deps, subaccountId, campaignId);
};

export const cancelCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (FINAL.includes(row.status)) throw alreadyCompleted();
    const now = new Date();
    await tx
      .update(campaigns)
      .set({ status: 'cancelled', completedAt: now, updatedAt: now })
      .where(eq(campaigns.id, row.id));
    await tx
      .update(campaignRecipients)
      .set({ status: 'skipped', skipReason: 'CANCELLED', updatedAt: now })
      .where(and(eq(campaignRecipients.campaignId, row.id), eq(campaignRecipients.status, 'queued')));
  });
  return getCampaign(deps, subaccountId, campaignId);
};

export const deleteCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  if (row.status === 'sending')
    throw new AppError('CONFLICT', 'Pause or cancel the campaign before deleting it.', { field: 'status' });
  await deps.db.delete(campaigns).where(eq(campaigns.id, row.id));
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
  const csv = Papa.unparse({
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
