import {
  type TCampaignAudience,
  type TCampaignInput,
  type TWhatsappVariableMapping,
  templateVariables,
  zonedLocalToUtc,
} from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isConnectionPaused } from '../connections/pauses';
import { BUILT_IN_VARIABLES } from './campaign-render';
import { getCampaign, ownedCampaign, toCampaign } from './campaign-report';
import { scheduleDispatchRound } from './campaign-rounds';
import { checkSteps, saveSteps } from './campaign-steps';
import { campaignStepSends } from './campaign-steps.schema';
import { type Channel, ownedChannel } from './connections';
import { messagingSettings } from './contacts';
import { checkMedia } from './media';
import { refuseSandboxOff } from './sandbox-mode';
import { campaignRecipients, campaigns, contacts } from './schema';
import { suppressedSql } from './suppressions';
import { resolveCampaignTemplate } from './whatsapp-templates';

export { campaignTimeline, exportCampaignCsv, getCampaign, listCampaigns } from './campaign-report';

type CampaignRow = typeof campaigns.$inferSelect;

/** The variables a message uses must be contact fields: built-in or an imported column. */
const checkVariables = async (db: Db, subaccountId: string, input: TCampaignInput, channel: 'sms' | 'whatsapp') => {
  if (channel === 'sms' && !input.message)
    throw new AppError('VALIDATION_ERROR', 'Write the message', { field: 'message' });
  if (channel === 'whatsapp' && !input.message && !input.whatsappTemplate)
    throw new AppError('VALIDATION_ERROR', 'Write the message or pick an approved template', { field: 'message' });
  if (channel === 'sms' && input.whatsappTemplate)
    throw new AppError('VALIDATION_ERROR', 'Templates are for WhatsApp campaigns', { field: 'whatsappTemplate' });
  // A template's variables are mapped to contact fields (checked with the approved template).
  const used = templateVariables(input.message);
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
      { field: 'message' },
    );
};

const SEND_AT_PASSED = (timeZone: string) =>
  `The send time has passed (${timeZone}). Pick a later time, or leave it empty to send when started.`;

/** The moment of a scheduled send: a valid local time of the time zone, not in the past. */
const scheduleOf = (input: TCampaignInput, timeZone: string) => {
  if (!input.sendAt) return null;
  const at = zonedLocalToUtc(input.sendAt, timeZone);
  if (Number.isNaN(at.getTime()))
    throw new AppError('VALIDATION_ERROR', 'Pick a valid date and time', { field: 'sendAt' });
  // Minutes are the finest a person picks: the current minute still counts as now.
  if (at.getTime() < Date.now() - 60_000)
    throw new AppError('VALIDATION_ERROR', SEND_AT_PASSED(timeZone), { field: 'sendAt' });
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
  await checkSteps(deps.db, subaccountId, null, input);
  const template = input.whatsappTemplate ? await resolveCampaignTemplate(deps, channel, input.whatsappTemplate) : null;
  if (input.mediaUrl) await checkMedia(deps, input.mediaUrl, 'mediaUrl');
  const settings = await messagingSettings(deps.db, subaccountId);
  const quiet = input.quietHours === undefined ? settings.quietHours : input.quietHours;
  const scheduledFor = scheduleOf(input, settings.timeZone);
  const row = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(campaigns)
      .values({
        id: newId('campaign'),
        subaccountId,
        connectionId,
        channel: type,
        name: input.name,
        audience: input.audience,
        message: input.message,
        whatsappTemplate: template,
        mediaUrl: input.mediaUrl ?? null,
        sendAt: input.sendAt ?? null,
        scheduledFor,
        timeZone: settings.timeZone,
        quietStart: quiet?.start ?? null,
        quietEnd: quiet?.end ?? null,
      })
      .returning();
    await saveSteps(tx, (inserted as CampaignRow).id, input);
    return inserted as CampaignRow;
  });
  if (input.steps?.length) return getCampaign(deps, subaccountId, row.id);
  return toCampaign(row, undefined, undefined, channel.account.transport === 'sandbox');
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
  await checkSteps(deps.db, subaccountId, campaignId, input);
  const template = input.whatsappTemplate
    ? await resolveCampaignTemplate(
        deps,
        await ownedChannel(deps.db, subaccountId, current.connectionId),
        input.whatsappTemplate,
      )
    : null;
  if (input.mediaUrl) await checkMedia(deps, input.mediaUrl, 'mediaUrl');
  const scheduledFor = scheduleOf(input, current.timeZone);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(campaigns)
      .set({
        name: input.name,
        audience: input.audience,
        message: input.message,
        whatsappTemplate: template,
        mediaUrl: input.mediaUrl ?? null,
        sendAt: input.sendAt ?? null,
        scheduledFor,
        quietStart: input.quietHours?.start ?? null,
        quietEnd: input.quietHours?.end ?? null,
        updatedAt: new Date(),
      })
      .where(eq(campaigns.id, campaignId));
    await saveSteps(tx, campaignId, input);
  });
  return getCampaign(deps, subaccountId, campaignId);
};

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

/** How a template variable's mapped contact field is read from `contacts AS c`; null for a fixed text. */
const mappedSql = (mapping: TWhatsappVariableMapping) => {
  const first = sql`split_part(trim(coalesce(c.name, '')), ' ', 1)`;
  switch (mapping.source) {
    case 'first_name':
      return first;
    case 'last_name':
      return sql`trim(substr(trim(coalesce(c.name, '')), length(${first}) + 1))`;
    case 'phone':
      return sql`c.phone`;
    case 'email':
      return sql`coalesce(trim(coalesce(c.attributes ->> 'email', c.attributes ->> 'Email')), '')`;
    case 'custom':
      return sql`coalesce(trim(c.attributes ->> ${mapping.value ?? ''}), '')`;
    case 'text':
      return null;
  }
};

/**
 * Refuses a start when the audience is empty or a subscribed contact lacks a variable's value:
 * one grouped query, whatever the audience's size.
 */
const checkAudience = async (tx: Tx, row: CampaignRow, channel: Channel) => {
  const audience = audienceSql(row.subaccountId, row.audience as TCampaignAudience);
  const subscribed = sql`NOT ${suppressedSql(channel, sql`c.phone`)}`;
  const template = row.whatsappTemplate;
  const fields = [
    ...new Set([
      ...templateVariables(row.message),
      ...(template && !template.variables ? templateVariables(template.body) : []),
    ]),
  ].map((name) => ({ name, value: variableSql(name) }));
  // A mapped template's variables, read as their contact fields (a fixed text is never missing).
  for (const [key, mapping] of Object.entries(template?.variables ?? {})) {
    const value = mappedSql(mapping);
    if (value) fields.push({ name: key, value });
  }
  const names = fields.map((field) => field.name);
  const lacking = fields.length
    ? sql.join(
        fields.map((field) => sql`count(*) FILTER (WHERE ${subscribed} AND ${field.value} = '')::int`),
        sql`, `,
      )
    : sql`0`;
  const firstLacking = fields.length
    ? sql`(SELECT c.phone FROM ${contacts} c WHERE ${audience} AND ${subscribed} AND (${sql.join(
        fields.map((field) => sql`${field.value} = ''`),
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
    // A draft saved for a time that has since passed is not sent at once without being asked.
    if (row.scheduledFor && row.scheduledFor.getTime() < Date.now() - 60_000)
      throw new AppError('VALIDATION_ERROR', SEND_AT_PASSED(row.timeZone), { field: 'sendAt' });
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
    await tx
      .update(campaigns)
      .set({ status: 'paused', holdReason: null, holdCode: null, holdMessage: null, updatedAt: new Date() })
      .where(eq(campaigns.id, row.id));
  });
  return getCampaign(deps, subaccountId, campaignId);
};

/**
 * A channel that cannot send now refuses a resume: paused in Launch, or its credentials refused by
 * the provider. A campaign held for either goes on by itself once the cause is gone.
 */
const refuseChannelOnHold = async (deps: Deps, channel: Channel) => {
  if (await isConnectionPaused(deps, channel.connection.id))
    throw new AppError(
      'CONNECTION_INACTIVE',
      'This channel is paused in Launch. Activate it there: its campaigns go on by themselves.',
      { reason: 'connection_paused' },
    );
  if (channel.account.status === 'error' && channel.account.statusCode === 'TWILIO_AUTH_FAILED')
    throw new AppError(
      'TWILIO_AUTH_FAILED',
      "Twilio refused this connection's credentials. Update them in Settings: its campaigns go on by themselves once they are saved.",
      { status: 409 },
    );
};

export const resumeCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  await refuseChannelOnHold(deps, await campaignChannel(deps, subaccountId, campaignId));
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (FINAL.includes(row.status)) throw alreadyCompleted();
    if (row.status !== 'paused')
      throw new AppError('CONFLICT', 'Only a paused campaign can be resumed.', { field: 'status' });
    await scheduleDispatchRound(deps, tx, row);
  });
  return getCampaign(deps, subaccountId, campaignId);
};

/**
 * "Retry unsent": the campaign's unconfirmed sends become sends in doubt again, and its dispatch
 * reconciles them with the provider before anything else: those the provider has are marked sent,
 * only the others are sent. A campaign that is not sending goes on sending (a new round).
 */
export const retryUnsent = async (deps: Deps, subaccountId: string, campaignId: string) => {
  await refuseChannelOnHold(deps, await campaignChannel(deps, subaccountId, campaignId));
  await deps.db.transaction(async (tx) => {
    const row = await ownedCampaign(tx, subaccountId, campaignId, true);
    if (row.status === 'cancelled' || row.status === 'draft' || row.status === 'scheduled')
      throw new AppError('CONFLICT', 'Only a campaign that has sent can retry its unsent messages.', {
        field: 'status',
      });
    const now = new Date();
    const retried = await tx
      .update(campaignRecipients)
      .set({ status: 'sending', claimedBy: null, errorCode: null, nextAttemptAt: now, updatedAt: now })
      .where(and(eq(campaignRecipients.campaignId, row.id), eq(campaignRecipients.status, 'unconfirmed')))
      .returning({ id: campaignRecipients.id });
    if (!retried.length)
      throw new AppError('CONFLICT', 'Nothing is left to retry: every send of this campaign is confirmed.', {
        field: 'status',
      });
    if (row.status !== 'sending') await scheduleDispatchRound(deps, tx, row);
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
    await tx
      .update(campaignStepSends)
      .set({ status: 'skipped', skipReason: 'CANCELLED', updatedAt: now })
      .where(and(eq(campaignStepSends.campaignId, row.id), eq(campaignStepSends.status, 'queued')));
  });
  return getCampaign(deps, subaccountId, campaignId);
};

export const deleteCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  if (row.status === 'sending')
    throw new AppError('CONFLICT', 'Pause or cancel the campaign before deleting it.', { field: 'status' });
  await deps.db.delete(campaigns).where(eq(campaigns.id, row.id));
};
