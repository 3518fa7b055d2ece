import { reachesOutside, replyTooLong, splitForChannel, type TChannelType, type TOrigin } from '@switchboard/core';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { defineJob, enqueueJob, RetryableJobError } from '../../platform/jobs';
import { isConnectionPaused } from '../connections/pauses';
import { channelEvents } from './channel-events';
import { type Channel, findChannel, markChannelError, transportOf, webhookUrlOf } from './connections';
import { refuseSandboxOff } from './sandbox-mode';
import { channelMessages } from './schema';
import { isPermanentFailure, isSuppressed, OPTED_OUT_MESSAGE, suppressFailed } from './suppressions';
import { TransportError } from './transport';

export const CHANNEL_SEND_JOB = 'channel:send';
/** Sends of one message: the first and up to five retries of temporary failures. */
const SEND_ATTEMPTS = 6;
/**
 * WhatsApp's customer service window and Meta's standard messaging window on Instagram: free-form
 * messages only this long after the contact's last message.
 */
export const WHATSAPP_WINDOW_MS = 24 * 3_600_000;

export { channelEvents };

export type MessageRow = typeof channelMessages.$inferSelect;

export const publishMessage = (deps: Deps, row: Pick<MessageRow, 'id' | 'connectionId' | 'status' | 'direction'>) =>
  deps.bus.publish(channelEvents(row.connectionId), {
    messageId: row.id,
    direction: row.direction,
    status: row.status,
  });

/** When the contact last wrote to this connection (the start of the 24-hour window), or null. */
export const lastInboundAt = async (deps: Deps, connectionId: string, phone: string): Promise<Date | null> => {
  const rows = await deps.db
    .select({ at: channelMessages.createdAt })
    .from(channelMessages)
    .where(
      and(
        eq(channelMessages.connectionId, connectionId),
        eq(channelMessages.contactPhone, phone),
        eq(channelMessages.direction, 'inbound'),
      ),
    )
    .orderBy(desc(channelMessages.createdAt))
    .limit(1);
  return rows[0]?.at ?? null;
};

export const insideWhatsappWindow = async (deps: Deps, connectionId: string, phone: string, now = Date.now()) => {
  const last = await lastInboundAt(deps, connectionId, phone);
  return Boolean(last && now - last.getTime() < WHATSAPP_WINDOW_MS);
};

export const SESSION_EXPIRED_MESSAGE =
  'The 24-hour WhatsApp window with this contact has closed. Send an approved template instead.';
/** Why a message queued for a channel paused in Launch was not sent. */
export const PAUSED_CHANNEL_MESSAGE =
  'This channel is paused in Launch: nothing is sent from it until it is activated again.';
export const INSTAGRAM_WINDOW_MESSAGE =
  "Meta's 24-hour messaging window with this contact has closed: Instagram accepts a message again once they write.";

/** Channels that answer only inside the 24-hour window (WhatsApp free-form messages, Instagram). */
const windowMessage = (type: TChannelType, contentSid: string | null) =>
  type === 'instagram' ? INSTAGRAM_WINDOW_MESSAGE : type === 'whatsapp' && !contentSid ? SESSION_EXPIRED_MESSAGE : null;

export interface QueueInput {
  to: string;
  parts: string[];
  mediaUrls?: string[];
  /** Base of the parts' idempotency keys: the same key never sends twice. */
  key: string;
  threadId?: string | null;
  /** Keyword confirmations go out to a contact who just opted out; nothing else does. */
  keywordReply?: boolean;
  /** Who sends it: the agent (its answers and notices; the default), a person from the inbox, or a keyword confirmation. */
  source?: 'agent' | 'person' | 'keyword';
  /** Where the answer comes from (an agent reply: its turn's); a test's is refused. */
  origin: TOrigin;
  /** An approved WhatsApp template sent instead of free text (one part: its filled text, stored). */
  template?: { contentSid: string; contentVariables: Record<string, string> };
}

/**
 * Stores the outbound parts of one answer (queued) and the job that sends them in order, in one
 * transaction. Queuing the same key again adds nothing.
 */
export const queueOutbound = async (deps: Deps, channel: Channel, input: QueueInput, outer?: Tx) => {
  if (!reachesOutside(input.origin)) throw new Error(`A test (${input.origin}) cannot send channel messages`);
  const run = async (tx: Tx) => {
    const rows = input.parts.map((body, index) => ({
      id: newId('channelMessage'),
      subaccountId: channel.connection.subaccountId,
      connectionId: channel.connection.id,
      direction: 'outbound' as const,
      contactPhone: input.to,
      body,
      mediaUrls: index === 0 ? (input.mediaUrls ?? []) : [],
      status: 'queued',
      threadId: input.threadId ?? null,
      source: input.source ?? 'agent',
      idempotencyKey: `${input.key}:${index}`,
      transport: channel.account.transport,
      contentSid: input.template?.contentSid ?? null,
      contentVariables: input.template?.contentVariables ?? null,
    }));
    if (!rows.length) return [];
    const inserted = await tx
      .insert(channelMessages)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: channelMessages.id });
    if (!inserted.length) return [];
    await enqueueJob(
      deps,
      {
        type: CHANNEL_SEND_JOB,
        payload: {
          connectionId: channel.connection.id,
          messageIds: inserted.map((row) => row.id),
          keywordReply: Boolean(input.keywordReply),
        },
        subaccountId: channel.connection.subaccountId,
        maxAttempts: SEND_ATTEMPTS,
        idempotencyKey: `send:${input.key}`,
      },
      tx,
    );
    return inserted.map((row) => row.id);
  };
  const ids = outer ? await run(outer) : await deps.db.transaction(run);
  for (const id of ids)
    void publishMessage(deps, { id, connectionId: channel.connection.id, status: 'queued', direction: 'outbound' });
  return ids;
};

const updateMessage = async (deps: Deps, row: MessageRow, values: Partial<MessageRow>) => {
  await deps.db
    .update(channelMessages)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(channelMessages.id, row.id));
  await publishMessage(deps, { ...row, status: values.status ?? row.status });
};

/**
 * Sends one stored message once. A message already sent, delivered or failed is left alone, so a
 * re-run job (a retry, a restart) never sends it twice; a temporary failure leaves it queued and
 * asks the job for a retry.
 */
export const sendStored = async (deps: Deps, channel: Channel, row: MessageRow, options: { keywordReply: boolean }) => {
  if (row.status !== 'queued' && row.status !== 'sending') return;
  const type = channel.connection.type;
  // A paused channel sends nothing: an answer queued before the pause is not sent after it.
  if (await isConnectionPaused(deps, channel.connection.id)) {
    await updateMessage(deps, row, {
      status: 'failed',
      errorCode: 'CONNECTION_INACTIVE',
      errorMessage: PAUSED_CHANNEL_MESSAGE,
    });
    return;
  }
  // The suppression list is asked at the send, so an opt-out that arrived after the message was
  // queued still stops it.
  if (!options.keywordReply && (await isSuppressed(deps.db, channel, row.contactPhone))) {
    await updateMessage(deps, row, { status: 'failed', errorCode: 'OPTED_OUT', errorMessage: OPTED_OUT_MESSAGE });
    return;
  }
  const closed = windowMessage(type, row.contentSid);
  if (closed && !(await insideWhatsappWindow(deps, row.connectionId, row.contactPhone))) {
    // Not sent, and why is recorded on the message.
    await updateMessage(deps, row, { status: 'failed', errorCode: 'SESSION_EXPIRED', errorMessage: closed });
    return;
  }
  await deps.db
    .update(channelMessages)
    .set({ status: 'sending', attempts: sql`${channelMessages.attempts} + 1`, updatedAt: new Date() })
    .where(eq(channelMessages.id, row.id));
  try {
    const result = await transportOf(deps, channel.account).send({
      channel: type,
      to: row.contactPhone,
      body: row.body,
      mediaUrls: row.mediaUrls,
      contentSid: row.contentSid,
      contentVariables: row.contentVariables,
      statusCallback: channel.account.transport === 'twilio' ? webhookUrlOf(deps, channel.connection.id) : undefined,
      idempotencyKey: `${row.idempotencyKey ?? row.id}:${row.attempts + 1}`,
    });
    await updateMessage(deps, row, { status: result.status, providerSid: result.providerSid, sentAt: new Date() });
  } catch (error) {
    if (error instanceof TransportError && error.transient) {
      await updateMessage(deps, row, { status: 'queued', errorMessage: error.message });
      throw new RetryableJobError(error.message, { retryAfterMs: error.retryAfterMs, cause: error });
    }
    const code = error instanceof TransportError ? (error.errorCode ?? String(error.httpStatus ?? '')) : 'SEND_FAILED';
    // Meta's own answer for a message outside the window (10 / 2018278).
    const outside = code === '10/2018278';
    await updateMessage(deps, row, {
      status: 'failed',
      errorCode: outside ? 'SESSION_EXPIRED' : code || 'SEND_FAILED',
      errorMessage: outside ? INSTAGRAM_WINDOW_MESSAGE : (error as Error).message,
    });
    if (isPermanentFailure(code))
      await suppressFailed(deps.db, channel, row.contactPhone, { code, message: (error as Error).message });
    if (error instanceof TransportError && error.authFailed)
      await markChannelError(deps, channel.connection.id, {
        code: type === 'instagram' ? 'META_AUTH_FAILED' : 'TWILIO_AUTH_FAILED',
        message: error.message,
      });
    throw error;
  }
};

/** Sends stored outbound messages (an agent's or a person's reply, in parts) in order. */
export const channelSendJob = defineJob({
  type: CHANNEL_SEND_JOB,
  queue: 'messages',
  priority: 5,
  schema: z.object({
    connectionId: z.string(),
    messageIds: z.array(z.string()),
    keywordReply: z.boolean().optional(),
  }),
  handler: async (deps, job) => {
    const payload = job.payload;
    const channel = await findChannel(deps.db, payload.connectionId);
    if (!channel) return { skipped: 'connection deleted' };
    const rows = await deps.db.select().from(channelMessages).where(inArray(channelMessages.id, payload.messageIds));
    const byId = new Map(rows.map((row) => [row.id, row]));
    // In order: a later part waits for the earlier ones.
    for (const id of payload.messageIds) {
      const row = byId.get(id);
      if (!row) continue;
      try {
        await sendStored(deps, channel, row, { keywordReply: Boolean(payload.keywordReply) });
      } catch (error) {
        if (error instanceof RetryableJobError) throw error;
        // A final failure of one part: the parts after it are not sent either.
        const rest = payload.messageIds.slice(payload.messageIds.indexOf(id) + 1);
        if (rest.length)
          await deps.db
            .update(channelMessages)
            .set({ status: 'failed', errorCode: 'PREVIOUS_PART_FAILED', updatedAt: new Date() })
            .where(and(inArray(channelMessages.id, rest), eq(channelMessages.status, 'queued')));
        throw error;
      }
    }
    return { sent: payload.messageIds.length };
  },
});

/**
 * A person's answer from the inbox, for an SMS, WhatsApp or Instagram thread: refused before
 * anything is stored (too long for the channel, WhatsApp or Instagram outside the 24-hour window,
 * an opted-out contact); otherwise the returned function queues it for the contact, split into
 * the channel's message size as the agent's answers are.
 */
export const humanReplyDelivery = async (deps: Deps, connectionId: string, phone: string | null, content: string) => {
  const channel = await findChannel(deps.db, connectionId);
  if (!channel || !phone) return null;
  const tooLong = replyTooLong(channel.connection.type, content);
  if (tooLong) throw new AppError('VALIDATION_ERROR', tooLong, { field: 'content' });
  refuseSandboxOff(deps.env, channel.account.transport);
  if (await isConnectionPaused(deps, channel.connection.id))
    throw new AppError('CONNECTION_INACTIVE', PAUSED_CHANNEL_MESSAGE, { reason: 'connection_paused' });
  const closed = windowMessage(channel.connection.type, null);
  if (closed && !(await insideWhatsappWindow(deps, channel.connection.id, phone)))
    throw new AppError('SESSION_EXPIRED', closed);
  if (await isSuppressed(deps.db, channel, phone))
    throw new AppError('MESSAGE_SEND_FAILED', OPTED_OUT_MESSAGE, { status: 409, reason: 'opted_out' });
  return (input: { threadId: string; content: string; mediaUrls?: string[]; key: string }) =>
    queueOutbound(deps, channel, {
      to: phone,
      parts: splitForChannel(channel.connection.type, input.content),
      mediaUrls: input.mediaUrls,
      key: input.key,
      threadId: input.threadId,
      source: 'person',
      origin: 'live',
    });
};

/** Messages of a connection, newest last (the sandbox phone, a contact's thread). */
export const listMessages = async (
  deps: Deps,
  connectionId: string,
  options: { phone?: string; since?: Date; limit: number; before?: { id: string } },
) => (await pageOfMessages(deps, connectionId, options)).messages;

/**
 * The latest `limit` messages of a connection, oldest first, or those before a message (paging back
 * through older ones); `hasMore`: older messages remain.
 */
export const pageOfMessages = async (
  deps: Deps,
  connectionId: string,
  options: { phone?: string; since?: Date; limit: number; before?: { id: string } },
) => {
  const conditions = [eq(channelMessages.connectionId, connectionId)];
  if (options.phone) conditions.push(eq(channelMessages.contactPhone, options.phone));
  if (options.since) conditions.push(gt(channelMessages.createdAt, options.since));
  if (options.before)
    conditions.push(
      // Compared in the database: its timestamps are finer than a JavaScript date.
      sql`(${channelMessages.createdAt}, ${channelMessages.id}) < (SELECT m.created_at, m.id FROM ${channelMessages} m WHERE m.id = ${options.before.id})`,
    );
  const found = await deps.db
    .select()
    .from(channelMessages)
    .where(and(...conditions))
    .orderBy(desc(channelMessages.createdAt), desc(channelMessages.id))
    .limit(options.limit + 1);
  const rows = found.slice(0, options.limit);
  return { messages: rows.reverse().map(messageView), hasMore: found.length > options.limit };
};

/** The message a page starts before, when it belongs to the connection. */
export const messageCursor = async (deps: Deps, connectionId: string, messageId: string) => {
  const [row] = await deps.db
    .select({ id: channelMessages.id })
    .from(channelMessages)
    .where(and(eq(channelMessages.id, messageId), eq(channelMessages.connectionId, connectionId)))
    .limit(1);
  return row ?? null;
};

const messageView = (row: typeof channelMessages.$inferSelect) => ({
  messageId: row.id,
  direction: row.direction,
  contactPhone: row.contactPhone,
  body: row.body,
  mediaUrls: row.mediaUrls,
  status: row.status,
  errorCode: row.errorCode,
  campaignId: row.campaignId,
  transport: row.transport,
  createdAt: row.createdAt.toISOString(),
});
