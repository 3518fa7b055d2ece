import { nextSendTime, type TCampaignAudience, type TMessagingChannel } from '@switchboard/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf } from '../../db/client';
import { incrementCounters } from '../../platform/counters';
import type { Deps } from '../../platform/deps';
import { backoffDelayMs, defineJob, enqueueJob } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { emitWebhookEvent } from '../webhooks/deliveries';
import { renderFor } from './campaign-render';
import { audienceSql, CAMPAIGN_DISPATCH_JOB, getCampaign } from './campaigns';
import { type Channel, findChannel, transportOf, webhookUrlOf } from './connections';
import { channelEvents, WHATSAPP_WINDOW_MS } from './outbound';
import { campaignRecipients, campaigns, channelMessages, contacts } from './schema';
import { suppressedAmong, suppressedSql } from './suppressions';
import { TransportError } from './transport';

/**
 * Recipients written or claimed per statement. Small enough that no statement holds the embedded
 * database (which runs on the event loop) for long, so chats keep flowing while a campaign sends.
 */
const BATCH = 100;
/**
 * On the embedded database every statement has the one connection to itself, so a campaign claims
 * and sends smaller batches there: a visitor's chat waits behind a shorter statement (the campaign
 * still sends well over its target rate; see the campaign benchmark).
 */
const EMBEDDED_BATCH = 20;
/** Sends of one recipient before a temporary failure becomes final. */
const MAX_SEND_ATTEMPTS = 5;

type Claimed = { id: string; contact_id: string; phone: string; attempts: number; message_id: string | null };
type Outcome = {
  recipientId: string;
  status: 'queued' | 'sent' | 'delivered' | 'failed' | 'skipped';
  messageId: string | null;
  providerSid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  skipReason: string | null;
  nextAttemptAt: Date | null;
  /** A retry or a quiet-hours wait gives the attempt back. */
  refundAttempt: boolean;
};

/** Lets waiting work (a widget chat's statements) run between the campaign's statements. */
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/** Waits for a slot of the sender's per-second rate (shared by every process through the counters). */
const takeRateSlot = async (deps: Deps, connectionId: string, rate: number) => {
  if (rate <= 0) return;
  for (;;) {
    const second = Math.floor(Date.now() / 1000);
    const [used = 0] = await incrementCounters(deps, [
      { key: `send:${connectionId}`, window: String(second), ttlSeconds: 10 },
    ]);
    if (used <= rate) return;
    await new Promise((resolve) => setTimeout(resolve, (second + 1) * 1000 - Date.now() + 5));
  }
};

/**
 * Recipients left `sending` by a process that stopped mid-send. Their message rows were written
 * before the send: with a provider id they were sent; the sandbox sends them again (nothing left the
 * server); on Twilio the outcome is unknown and they are marked failed (UNCONFIRMED) rather than
 * risk a second text.
 */
const settleInterrupted = async (deps: Deps, channel: Channel, campaignId: string) => {
  // Only rows of a run that is no longer alive: another run of the same campaign (a quick resume)
  // may be sending right now.
  const rows = rowsOf<{ id: string; message_id: string | null; provider_sid: string | null }>(
    await deps.db.execute(sql`
      SELECT r.id, r.message_id, m.provider_sid FROM ${campaignRecipients} r
      LEFT JOIN ${channelMessages} m ON m.id = r.message_id
      WHERE r.campaign_id = ${campaignId} AND r.status = 'sending'
        AND (r.claimed_by IS NULL OR r.claimed_by NOT IN (
          SELECT id || '#' || attempts FROM ${jobs} WHERE status = 'running' AND heartbeat_at > now() - interval '30 seconds'))`),
  );
  for (const row of rows) {
    if (row.provider_sid) {
      await deps.db
        .update(campaignRecipients)
        .set({ status: 'sent', sentAt: new Date(), updatedAt: new Date() })
        .where(eq(campaignRecipients.id, row.id));
    } else if (channel.account.transport === 'sandbox') {
      await deps.db
        .update(campaignRecipients)
        .set({ status: 'queued', updatedAt: new Date() })
        .where(eq(campaignRecipients.id, row.id));
    } else {
      await deps.db
        .update(campaignRecipients)
        .set({ status: 'failed', errorCode: 'UNCONFIRMED', updatedAt: new Date() })
        .where(eq(campaignRecipients.id, row.id));
      if (row.message_id)
        await deps.db
          .update(channelMessages)
          .set({
            status: 'failed',
            errorCode: 'UNCONFIRMED',
            errorMessage: 'The process stopped during the send',
            updatedAt: new Date(),
          })
          .where(eq(channelMessages.id, row.message_id));
    }
  }
};

/**
 * Writes the campaign's recipients from its audience, BATCH contacts per statement in contact id
 * order, keeping the last id written on the campaign so a stopped run continues where it was.
 * Numbers on the sender's suppression list are written as skipped (OPTED_OUT), so the report shows them.
 */
export const fillRecipients = async (deps: Deps, campaign: typeof campaigns.$inferSelect, channel: Channel) => {
  let cursor = campaign.recipientsCursor;
  while (cursor !== null) {
    const audience = audienceSql(campaign.subaccountId, campaign.audience as TCampaignAudience);
    const [picked] = rowsOf<{ last: string | null; n: number }>(
      await deps.db.execute(sql`
        WITH picked AS (
          SELECT c.id, c.phone, ${suppressedSql(channel, sql`c.phone`)} AS suppressed FROM ${contacts} c
          WHERE ${audience} AND c.id > ${cursor} ORDER BY c.id LIMIT ${BATCH}
        ), inserted AS (
          INSERT INTO ${campaignRecipients} (id, campaign_id, contact_id, phone, status, skip_reason)
          SELECT 'crc_' || substr(md5(random()::text || clock_timestamp()::text || p.id), 1, 16), ${campaign.id}, p.id, p.phone,
            CASE WHEN p.suppressed THEN 'skipped' ELSE 'queued' END, CASE WHEN p.suppressed THEN 'OPTED_OUT' END
          FROM picked p
          ON CONFLICT (campaign_id, contact_id) DO NOTHING
        )
        SELECT max(id) AS last, count(*)::int AS n FROM picked`),
    );
    const next = picked && picked.n >= BATCH ? (picked.last as string) : null;
    await deps.db.update(campaigns).set({ recipientsCursor: next }).where(eq(campaigns.id, campaign.id));
    cursor = next;
    await new Promise((resolve) => setImmediate(resolve));
  }
};

/** Claims due recipients for this run. */
const claimBatch = async (deps: Deps, campaign: typeof campaigns.$inferSelect, runId: string, size: number) => {
  const claimed = rowsOf<Claimed>(
    await deps.db.execute(sql`
        UPDATE ${campaignRecipients} SET status = 'sending', attempts = attempts + 1, claimed_by = ${runId}, updated_at = now()
        WHERE id IN (
          SELECT id FROM ${campaignRecipients}
          WHERE campaign_id = ${campaign.id} AND status = 'queued' AND next_attempt_at <= now()
          ORDER BY next_attempt_at, id
          LIMIT ${size}
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id, contact_id, phone, attempts, message_id`),
  );
  return claimed;
};

const applyOutcomes = async (deps: Deps, outcomes: Outcome[]) => {
  if (!outcomes.length) return;
  await deps.db.execute(sql`
    UPDATE ${campaignRecipients} AS r SET
      status = o.status,
      message_id = COALESCE(o.message_id, r.message_id),
      error_code = o.error_code,
      skip_reason = o.skip_reason,
      next_attempt_at = COALESCE(o.next_attempt_at, r.next_attempt_at),
      attempts = CASE WHEN o.refund THEN r.attempts - 1 ELSE r.attempts END,
      claimed_by = NULL,
      sent_at = CASE WHEN o.status IN ('sent', 'delivered') THEN now() ELSE r.sent_at END,
      delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE r.delivered_at END,
      updated_at = now()
    FROM unnest(
      ${sql.param(outcomes.map((o) => o.recipientId))}::text[],
      ${sql.param(outcomes.map((o) => o.status))}::text[],
      ${sql.param(outcomes.map((o) => o.messageId))}::text[],
      ${sql.param(outcomes.map((o) => o.errorCode))}::text[],
      ${sql.param(outcomes.map((o) => o.skipReason))}::text[],
      ${sql.param(outcomes.map((o) => o.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
      ${sql.param(outcomes.map((o) => o.refundAttempt))}::boolean[]
    ) AS o(id, status, message_id, error_code, skip_reason, next_attempt_at, refund)
    WHERE r.id = o.id`);
  const messages = outcomes.filter((o) => o.messageId);
  if (messages.length)
    await deps.db.execute(sql`
      UPDATE ${channelMessages} AS m SET
        status = o.status, provider_sid = COALESCE(o.sid, m.provider_sid), error_code = o.error_code,
        error_message = o.error_message, attempts = m.attempts + 1,
        sent_at = CASE WHEN o.status IN ('sent', 'delivered') THEN now() ELSE m.sent_at END, updated_at = now()
      FROM unnest(
        ${sql.param(messages.map((o) => o.messageId))}::text[],
        ${sql.param(messages.map((o) => (o.status === 'skipped' ? 'failed' : o.status)))}::text[],
        ${sql.param(messages.map((o) => o.providerSid))}::text[],
        ${sql.param(messages.map((o) => o.errorCode ?? (o.skipReason || null)))}::text[],
        ${sql.param(messages.map((o) => o.errorMessage))}::text[]
      ) AS o(id, status, sid, error_code, error_message)
      WHERE m.id = o.id`);
};

/**
 * One run of a campaign's dispatch: claims due recipients in batches, sends each once through the
 * connection's transport at the sender's rate, and writes the outcomes in bulk. Temporary failures
 * come back after a backoff (honouring Retry-After); recipients inside quiet hours wait until they
 * end. When only later work is left, the next run is queued for then; with none, it completes.
 */
export const dispatchCampaign = async (
  deps: Deps,
  campaignId: string,
  options: { runId: string; maxBatches?: number },
) => {
  const [campaign] = await deps.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign) return { stopped: 'deleted' };
  if (campaign.status === 'scheduled') {
    await deps.db
      .update(campaigns)
      .set({ status: 'sending', startedAt: campaign.startedAt ?? new Date(), updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'scheduled')));
  } else if (campaign.status !== 'sending') return { stopped: campaign.status };
  const channel = await findChannel(deps.db, campaign.connectionId);
  if (!channel) return { stopped: 'connection deleted' };
  const transport = transportOf(deps, channel.account);
  const type = channel.connection.type as TMessagingChannel;
  const rate = channel.account.sendRatePerSecond;
  const quiet =
    campaign.quietStart && campaign.quietEnd ? { start: campaign.quietStart, end: campaign.quietEnd } : null;
  await fillRecipients(deps, campaign, channel);
  await settleInterrupted(deps, channel, campaign.id);

  let batches = 0;
  let sent = 0;
  for (;;) {
    const [state] = await deps.db
      .select({ status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, campaign.id));
    if (state?.status !== 'sending') return { stopped: state?.status ?? 'deleted', sent };
    if (options.maxBatches !== undefined && batches >= options.maxBatches) return { paused: true, sent };
    const batchSize = deps.database.driver === 'pglite' ? EMBEDDED_BATCH : BATCH;
    const claimed = await claimBatch(
      deps,
      campaign,
      options.runId,
      rate > 0 ? Math.min(batchSize, Math.max(1, rate)) : batchSize,
    );
    batches += 1;
    if (!claimed.length) break;
    await yieldToOthers();

    const people = await deps.db
      .select({
        id: contacts.id,
        phone: contacts.phone,
        name: contacts.name,
        attributes: contacts.attributes,
        timeZone: contacts.timeZone,
      })
      .from(contacts)
      .where(
        inArray(
          contacts.id,
          claimed.map((row) => row.contact_id),
        ),
      );
    const byId = new Map(people.map((person) => [person.id, person]));
    // Asked again at the send: a STOP may have come in since the recipients were written.
    const suppressed = await suppressedAmong(deps.db, channel, [
      ...new Set([...claimed.map((row) => row.phone), ...people.map((person) => person.phone)]),
    ]);
    const windowOpen = new Set<string>();
    if (type === 'whatsapp' && !campaign.whatsappTemplate) {
      const rows = rowsOf<{ phone: string }>(
        await deps.db.execute(sql`
          SELECT DISTINCT contact_phone AS phone FROM ${channelMessages}
          WHERE connection_id = ${channel.connection.id} AND direction = 'inbound'
            AND created_at > ${new Date(Date.now() - WHATSAPP_WINDOW_MS).toISOString()}::timestamptz
            AND contact_phone = ANY(${sql.param(claimed.map((row) => row.phone))}::text[])`),
      );
      for (const row of rows) windowOpen.add(row.phone);
    }

    // The message rows are written before anything is sent: a stop mid-send leaves a trace.
    const outcomes: Outcome[] = [];
    const toSend: { row: Claimed; messageId: string; rendered: ReturnType<typeof renderFor> }[] = [];
    const newMessages: (typeof channelMessages.$inferInsert)[] = [];
    const now = new Date();
    for (const row of claimed) {
      const person = byId.get(row.contact_id);
      const skip = (reason: string) =>
        outcomes.push({
          recipientId: row.id,
          status: 'skipped',
          messageId: null,
          providerSid: null,
          errorCode: null,
          errorMessage: null,
          skipReason: reason,
          nextAttemptAt: null,
          refundAttempt: false,
        });
      if (!person) {
        skip('CONTACT_DELETED');
        continue;
      }
      if (suppressed.has(person.phone) || suppressed.has(row.phone)) {
        skip('OPTED_OUT');
        continue;
      }
      if (type === 'whatsapp' && !campaign.whatsappTemplate && !windowOpen.has(person.phone)) {
        skip('SESSION_EXPIRED');
        continue;
      }
      const next = nextSendTime(now, person.timeZone ?? campaign.timeZone, quiet);
      if (next.getTime() > now.getTime()) {
        outcomes.push({
          recipientId: row.id,
          status: 'queued',
          messageId: null,
          providerSid: null,
          errorCode: null,
          errorMessage: null,
          skipReason: null,
          nextAttemptAt: next,
          refundAttempt: true,
        });
        continue;
      }
      const rendered = renderFor(campaign, person);
      if (rendered.missing.length) {
        skip(`MISSING_VARIABLE:${rendered.missing[0]}`);
        continue;
      }
      const messageId = row.message_id ?? `cms_${row.id.slice(4)}`;
      if (!row.message_id)
        newMessages.push({
          id: messageId,
          subaccountId: campaign.subaccountId,
          connectionId: channel.connection.id,
          direction: 'outbound',
          contactPhone: person.phone,
          body: rendered.body,
          mediaUrls: campaign.mediaUrl ? [campaign.mediaUrl] : [],
          contentSid: rendered.contentSid,
          contentVariables: rendered.contentVariables,
          status: 'sending',
          campaignId: campaign.id,
          idempotencyKey: `campaign:${campaign.id}:${row.contact_id}`,
          transport: channel.account.transport,
        });
      toSend.push({ row, messageId, rendered });
    }
    if (newMessages.length) {
      // One statement: the messages (by unnest, so its text does not grow with the batch) and the
      // recipients pointing at them.
      const param = <T>(pick: (m: (typeof newMessages)[number]) => T) => sql.param(newMessages.map(pick));
      await deps.db.execute(sql`
        WITH inserted AS (
          INSERT INTO ${channelMessages} (id, subaccount_id, connection_id, direction, contact_phone, body, media_urls,
            content_sid, content_variables, status, campaign_id, idempotency_key, transport)
          SELECT * FROM unnest(
            ${param((m) => m.id)}::text[], ${param((m) => m.subaccountId)}::text[], ${param((m) => m.connectionId)}::text[],
            ${param((m) => m.direction)}::text[], ${param((m) => m.contactPhone)}::text[], ${param((m) => m.body ?? '')}::text[],
            ${param((m) => JSON.stringify(m.mediaUrls ?? []))}::jsonb[], ${param((m) => m.contentSid ?? null)}::text[],
            ${param((m) => (m.contentVariables ? JSON.stringify(m.contentVariables) : null))}::jsonb[], ${param((m) => m.status)}::text[],
            ${param((m) => m.campaignId ?? null)}::text[], ${param((m) => m.idempotencyKey ?? null)}::text[], ${param((m) => m.transport)}::text[]
          )
          ON CONFLICT DO NOTHING
        )
        UPDATE ${campaignRecipients} AS r SET message_id = o.message_id
        FROM unnest(${sql.param(newMessages.map((m) => `crc_${m.id.slice(4)}`))}::text[], ${param((m) => m.id)}::text[]) AS o(id, message_id)
        WHERE r.id = o.id`);
    }

    for (const { row, messageId, rendered } of toSend) {
      await takeRateSlot(deps, channel.connection.id, rate);
      try {
        const result = await transport.send({
          channel: type,
          to: row.phone,
          body: rendered.body,
          mediaUrls: campaign.mediaUrl ? [campaign.mediaUrl] : [],
          contentSid: rendered.contentSid,
          contentVariables: rendered.contentVariables,
          statusCallback:
            channel.account.transport === 'twilio' ? webhookUrlOf(deps, channel.connection.id) : undefined,
        });
        sent += 1;
        outcomes.push({
          recipientId: row.id,
          status: result.status === 'delivered' ? 'delivered' : 'sent',
          messageId,
          providerSid: result.providerSid,
          errorCode: null,
          errorMessage: null,
          skipReason: null,
          nextAttemptAt: null,
          refundAttempt: false,
        });
      } catch (error) {
        const transient = error instanceof TransportError && error.transient && row.attempts < MAX_SEND_ATTEMPTS;
        const code =
          error instanceof TransportError
            ? (error.errorCode ?? String(error.httpStatus ?? 'SEND_FAILED'))
            : 'SEND_FAILED';
        outcomes.push(
          transient
            ? {
                recipientId: row.id,
                status: 'queued',
                messageId,
                providerSid: null,
                errorCode: code,
                errorMessage: (error as Error).message,
                skipReason: null,
                nextAttemptAt: new Date(
                  Date.now() + backoffDelayMs(row.attempts, { retryAfterMs: (error as TransportError).retryAfterMs }),
                ),
                refundAttempt: false,
              }
            : {
                recipientId: row.id,
                status: 'failed',
                messageId,
                providerSid: null,
                errorCode: code,
                errorMessage: (error as Error).message,
                skipReason: null,
                nextAttemptAt: null,
                refundAttempt: false,
              },
        );
      }
    }
    await yieldToOthers();
    await applyOutcomes(deps, outcomes);
    await deps.bus.publish(channelEvents(channel.connection.id), { campaignId: campaign.id, kind: 'campaign' });
    await yieldToOthers();
  }

  // Nothing due now: either done, or the rest waits (quiet hours, a backoff).
  const [left] = rowsOf<{ n: number; next: string | null }>(
    await deps.db.execute(sql`
      SELECT count(*)::int AS n, min(next_attempt_at)::text AS next FROM ${campaignRecipients}
      WHERE campaign_id = ${campaign.id} AND status IN ('queued', 'sending')`),
  );
  if (!left?.n) {
    const finished = await deps.db
      .update(campaigns)
      .set({ status: 'completed', completedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'sending')))
      .returning({ id: campaigns.id });
    await deps.bus.publish(channelEvents(channel.connection.id), { campaignId: campaign.id, kind: 'campaign' });
    if (finished.length) {
      const view = await getCampaign(deps, campaign.subaccountId, campaign.id);
      await emitWebhookEvent(
        deps,
        campaign.subaccountId,
        'campaign.completed',
        {
          campaignId: view.campaignId,
          connectionId: view.connectionId,
          channel: view.channel,
          name: view.name,
          recipients: view.figures.total,
          sent: view.figures.sent,
          delivered: view.figures.delivered,
          failed: view.figures.failed,
          skipped: view.figures.skipped,
          optedOut: view.figures.optedOut,
          replied: view.figures.replied,
        },
        'live',
      );
    }
    return { completed: true, sent };
  }
  const round = campaign.dispatchRound + 1;
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(campaigns)
      .set({ dispatchRound: round, updatedAt: new Date() })
      .where(
        and(
          eq(campaigns.id, campaign.id),
          eq(campaigns.status, 'sending'),
          eq(campaigns.dispatchRound, campaign.dispatchRound),
        ),
      )
      .returning({ id: campaigns.id });
    if (!updated.length) return;
    await enqueueJob(
      deps,
      {
        type: CAMPAIGN_DISPATCH_JOB,
        payload: { campaignId: campaign.id },
        subaccountId: campaign.subaccountId,
        runAt: new Date(Math.max(Date.now(), left.next ? Date.parse(left.next) : Date.now())),
        maxAttempts: 10,
        idempotencyKey: `campaign:${campaign.id}:${round}`,
      },
      tx,
    );
  });
  return { waiting: left.n, sent };
};

/** Sends a campaign's due recipients in rounds, each queueing the next. */
export const campaignDispatchJob = defineJob({
  type: CAMPAIGN_DISPATCH_JOB,
  queue: 'campaigns',
  schema: z.object({ campaignId: z.string() }),
  maxAttempts: 10,
  handler: (deps, job) => dispatchCampaign(deps, job.payload.campaignId, { runId: `${job.id}#${job.attempt}` }),
});
