import { nextSendTime, type TMessagingChannel } from '@switchboard/core';
import { inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import { incrementCounters } from '../../platform/counters';
import type { Deps } from '../../platform/deps';
import { foregroundIdle } from '../../platform/foreground';
import { backoffDelayMs } from '../../platform/jobs';
import { isConnectionPaused } from '../connections/pauses';
import { renderFor } from './campaign-render';
import { shortenLinks } from './campaign-tracking';
import { type Channel, webhookUrlOf } from './connections';
import { applyOutcomes, type Outcome, outcomeOf } from './dispatch-outcomes';
import { WHATSAPP_WINDOW_MS } from './outbound';
import { campaignRecipients, type campaigns, channelMessages, contacts } from './schema';
import { isPermanentFailure, suppressionsAmong } from './suppressions';
import { type ChannelTransport, TransportError } from './transport';

/** Sends of one recipient before a temporary failure becomes final. */
const MAX_SEND_ATTEMPTS = 5;
/**
 * How long a send in doubt waits before it is reconciled with the provider, so a message the
 * provider accepted has shown up in its list by then. A claim counts as a send in doubt from the
 * start: a run that stops mid-send leaves its claims to be reconciled no earlier than this.
 */
export const RECONCILE_AFTER_MS = 10_000;

/**
 * The most a campaign's next batch waits for the requests this process is answering (a widget
 * chat, an inbound message): a person waiting goes before a bulk send, which still moves.
 */
const FOREGROUND_WAIT_MS = 50;
export const letForegroundFirst = async () => {
  await foregroundIdle(FOREGROUND_WAIT_MS);
  await new Promise((resolve) => setImmediate(resolve));
};

/** One run of a campaign's dispatch: what every batch needs. */
export interface DispatchRun {
  campaign: typeof campaigns.$inferSelect;
  channel: Channel;
  transport: ChannelTransport;
  runId: string;
  signal?: AbortSignal;
  /** Called after each provider call, before its outcome is stored (a test stops a run there, as a crash would). */
  afterSend?: (recipientId: string) => void;
}

export type Claimed = {
  id: string;
  contact_id: string;
  phone: string;
  attempts: number;
  message_id: string | null;
  send_key: string;
};

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
 * Claims due recipients for this run. Each claim stores the run, its time and the idempotency key
 * of this attempt before anything is sent, and counts as in doubt until RECONCILE_AFTER_MS.
 */
export const claimBatch = async (deps: Deps, campaignId: string, runId: string, size: number) =>
  rowsOf<Claimed>(
    await deps.db.execute(sql`
      UPDATE ${campaignRecipients} SET status = 'sending', attempts = attempts + 1, claimed_by = ${runId},
        claimed_at = now(), send_key = id || ':' || (attempts + 1),
        next_attempt_at = now() + ${`${RECONCILE_AFTER_MS} milliseconds`}::interval, updated_at = now()
      WHERE id IN (
        SELECT id FROM ${campaignRecipients}
        WHERE campaign_id = ${campaignId} AND status = 'queued' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id
        LIMIT ${size}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, contact_id, phone, attempts, message_id, send_key`),
  );

type ToSend = { row: Claimed; messageId: string; rendered: ReturnType<typeof renderFor> };

/** The contacts behind the claimed recipients, and which of them may not get this message now. */
const contactsOf = async (deps: Deps, run: DispatchRun, claimed: Claimed[]) => {
  const { channel, campaign } = run;
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
  // Asked again at the send: a STOP may have come in since the recipients were written.
  const suppressed = await suppressionsAmong(deps.db, channel, [
    ...new Set([...claimed.map((row) => row.phone), ...people.map((person) => person.phone)]),
  ]);
  const windowOpen = new Set<string>();
  if (channel.connection.type === 'whatsapp' && !campaign.whatsappTemplate) {
    const rows = rowsOf<{ phone: string }>(
      await deps.db.execute(sql`
        SELECT DISTINCT contact_phone AS phone FROM ${channelMessages}
        WHERE connection_id = ${channel.connection.id} AND direction = 'inbound'
          AND created_at > ${new Date(Date.now() - WHATSAPP_WINDOW_MS).toISOString()}::timestamptz
          AND contact_phone = ANY(${sql.param(claimed.map((row) => row.phone))}::text[])`),
    );
    for (const row of rows) windowOpen.add(row.phone);
  }
  return { byId: new Map(people.map((person) => [person.id, person])), suppressed, windowOpen };
};

/** Sorts the claimed recipients into skipped, waiting (quiet hours) and to send, with their rendered message. */
const prepare = async (deps: Deps, run: DispatchRun, claimed: Claimed[]) => {
  const { campaign, channel } = run;
  const { byId, suppressed, windowOpen } = await contactsOf(deps, run, claimed);
  const quiet =
    campaign.quietStart && campaign.quietEnd ? { start: campaign.quietStart, end: campaign.quietEnd } : null;
  const outcomes: Outcome[] = [];
  const toSend: ToSend[] = [];
  const now = new Date();
  for (const row of claimed) {
    const person = byId.get(row.contact_id);
    const skip = (reason: string) => outcomes.push(outcomeOf(row.id, { status: 'skipped', skipReason: reason }));
    if (!person) {
      skip('CONTACT_DELETED');
      continue;
    }
    const suppression = suppressed.get(person.phone) ?? suppressed.get(row.phone);
    if (suppression) {
      skip(suppression);
      continue;
    }
    if (channel.connection.type === 'whatsapp' && !campaign.whatsappTemplate && !windowOpen.has(person.phone)) {
      skip('SESSION_EXPIRED');
      continue;
    }
    const next = nextSendTime(now, person.timeZone ?? campaign.timeZone, quiet);
    if (next.getTime() > now.getTime()) {
      outcomes.push(outcomeOf(row.id, { status: 'queued', nextAttemptAt: next, refundAttempt: true }));
      continue;
    }
    const rendered = renderFor(campaign, person);
    if (rendered.missing.length) {
      skip(`MISSING_VARIABLE:${rendered.missing[0]}`);
      continue;
    }
    toSend.push({ row, messageId: row.message_id ?? `cms_${row.id.slice(4)}`, rendered });
  }
  return { outcomes, toSend };
};

/**
 * Writes the message rows of the sends before anything is sent, so a stop mid-send leaves a trace:
 * one statement for the messages (by unnest, so its text does not grow with the batch) and the
 * recipients pointing at them.
 */
const writeMessages = async (deps: Deps, run: DispatchRun, toSend: ToSend[]) => {
  const { campaign, channel } = run;
  const fresh = toSend.filter((item) => !item.row.message_id);
  if (!fresh.length) return;
  const param = <T>(pick: (item: ToSend) => T) => sql.param(fresh.map(pick));
  await deps.db.execute(sql`
    WITH inserted AS (
      INSERT INTO ${channelMessages} (id, subaccount_id, connection_id, direction, contact_phone, body, media_urls,
        content_sid, content_variables, status, campaign_id, idempotency_key, transport, source)
      SELECT * FROM unnest(
        ${param((m) => m.messageId)}::text[], ${param(() => campaign.subaccountId)}::text[],
        ${param(() => channel.connection.id)}::text[], ${param(() => 'outbound')}::text[],
        ${param((m) => m.row.phone)}::text[], ${param((m) => m.rendered.body)}::text[],
        ${param(() => JSON.stringify(campaign.mediaUrl ? [campaign.mediaUrl] : []))}::jsonb[],
        ${param((m) => m.rendered.contentSid)}::text[],
        ${param((m) => (m.rendered.contentVariables ? JSON.stringify(m.rendered.contentVariables) : null))}::jsonb[],
        ${param(() => 'sending')}::text[], ${param(() => campaign.id)}::text[],
        ${param((m) => `campaign:${campaign.id}:${m.row.contact_id}`)}::text[],
        ${param(() => channel.account.transport)}::text[], ${param(() => 'campaign')}::text[]
      )
      ON CONFLICT DO NOTHING
    )
    UPDATE ${campaignRecipients} AS r SET message_id = o.message_id
    FROM unnest(${param((m) => m.row.id)}::text[], ${param((m) => m.messageId)}::text[]) AS o(id, message_id)
    WHERE r.id = o.id`);
};

/**
 * What a failed send means for its recipient (a campaign's, or a sequence step's): retried later,
 * in doubt, or failed.
 */
export const failureOutcome = (
  item: { messageId: string; row: { id: string; attempts: number } },
  error: unknown,
): Outcome => {
  const transport = error instanceof TransportError ? error : null;
  const code = transport ? (transport.errorCode ?? String(transport.httpStatus ?? 'SEND_FAILED')) : 'SEND_FAILED';
  const base = { messageId: item.messageId, errorCode: code, errorMessage: (error as Error).message };
  if (transport?.maybeSent)
    return outcomeOf(item.row.id, {
      ...base,
      status: 'sending',
      nextAttemptAt: new Date(Date.now() + RECONCILE_AFTER_MS),
    });
  if (transport?.transient && item.row.attempts < MAX_SEND_ATTEMPTS)
    return outcomeOf(item.row.id, {
      ...base,
      status: 'queued',
      nextAttemptAt: new Date(Date.now() + backoffDelayMs(item.row.attempts, { retryAfterMs: transport.retryAfterMs })),
    });
  return outcomeOf(item.row.id, { ...base, status: 'failed' });
};

/** Why a batch stops before its next send: the run was told to stop, or the channel was paused. */
const stopBefore = async (deps: Deps, run: DispatchRun) => {
  if (run.signal?.aborted) return 'stopping' as const;
  if (await isConnectionPaused(deps, run.channel.connection.id)) return 'channel_paused' as const;
  return null;
};

export interface BatchResult {
  sent: number;
  /** The provider refused the credentials: the batch's unsent recipients went back to the queue. */
  authFailure?: TransportError;
  channelPaused?: boolean;
}

/**
 * Sends one claimed batch once through the connection's transport at the sender's rate, and writes
 * the outcomes in bulk. A send that may have reached the provider without an answer stays in doubt;
 * an authentication failure, the channel paused or the run stopping give the rest back unsent.
 */
export const sendBatch = async (deps: Deps, run: DispatchRun, claimed: Claimed[]): Promise<BatchResult> => {
  const { campaign, channel, transport } = run;
  const { outcomes, toSend } = await prepare(deps, run, claimed);
  // A template's text is the approved one: only free text carries short links.
  const texts = toSend.filter((item) => !item.rendered.contentSid);
  const shortened = await shortenLinks(
    deps,
    campaign,
    channel.account.transport === 'sandbox',
    texts.map((item) => ({ recipientId: item.row.id, body: item.rendered.body })),
  );
  for (const item of texts) item.rendered.body = shortened.get(item.row.id) ?? item.rendered.body;
  await writeMessages(deps, run, toSend);
  const result: BatchResult = { sent: 0 };
  const giveBack = (items: ToSend[]) =>
    outcomes.push(
      ...items.map((item) =>
        outcomeOf(item.row.id, {
          status: 'queued',
          messageId: item.messageId,
          nextAttemptAt: new Date(),
          refundAttempt: true,
        }),
      ),
    );
  for (const [index, item] of toSend.entries()) {
    const stop = await stopBefore(deps, run);
    if (stop) {
      result.channelPaused = stop === 'channel_paused';
      giveBack(toSend.slice(index));
      break;
    }
    await takeRateSlot(deps, channel.connection.id, channel.account.sendRatePerSecond);
    let sent: Awaited<ReturnType<ChannelTransport['send']>>;
    try {
      sent = await transport.send({
        channel: channel.connection.type as TMessagingChannel,
        to: item.row.phone,
        body: item.rendered.body,
        mediaUrls: campaign.mediaUrl ? [campaign.mediaUrl] : [],
        contentSid: item.rendered.contentSid,
        contentVariables: item.rendered.contentVariables,
        statusCallback: channel.account.transport === 'twilio' ? webhookUrlOf(deps, channel.connection.id) : undefined,
        idempotencyKey: item.row.send_key,
      });
    } catch (error) {
      if (error instanceof TransportError && error.authFailed) {
        result.authFailure = error;
        giveBack(toSend.slice(index));
        break;
      }
      outcomes.push(failureOutcome(item, error));
      continue;
    }
    run.afterSend?.(item.row.id);
    result.sent += 1;
    outcomes.push(
      outcomeOf(item.row.id, {
        status: sent.status === 'delivered' ? 'delivered' : 'sent',
        messageId: item.messageId,
        providerSid: sent.providerSid,
      }),
    );
  }
  // A permanent failure puts the number on the suppression list with the outcome.
  const byId = new Map(claimed.map((item) => [item.id, item]));
  const failedNumbers = outcomes.flatMap((outcome) => {
    const row = byId.get(outcome.recipientId);
    return outcome.status === 'failed' && row && isPermanentFailure(outcome.errorCode)
      ? [{ phone: row.phone, code: outcome.errorCode, message: outcome.errorMessage }]
      : [];
  });
  await applyOutcomes(deps, outcomes, failedNumbers.length ? { channel, failedNumbers } : undefined);
  return result;
};
