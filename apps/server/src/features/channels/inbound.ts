import { KEYWORD_REPLIES, type Keyword, keywordOf, splitForChannel } from '@switchboard/core';
import { and, desc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { defineJob, enqueueJob } from '../../platform/jobs';
import { answerVisitor, VISITOR_UNAVAILABLE } from '../connections/visitor-gate';
import { replyAsAgent } from '../conversations/reply';
import { threads } from '../conversations/schema';
import { getSmsSettings } from '../theme/service';
import { attributeToSequence } from './campaign-steps-leave';
import { type Channel, findChannel } from './connections';
import { contactForPhone } from './contacts';
import { rememberInstagramProfile } from './instagram-profiles';
import { publishMessage, queueOutbound } from './outbound';
import { campaignRecipients, campaigns, channelMessages } from './schema';
import { isPermanentFailure, isSuppressed, lift, suppress, suppressFailed } from './suppressions';

export const CHANNEL_INBOUND_JOB = 'channel:inbound';
/** A reply counts for a campaign sent to the number this recently. */
export const REPLY_ATTRIBUTION_MS = 7 * 86_400_000;

export interface InboundMessage {
  /** An E.164 number, or on Instagram the contact's Instagram-scoped id (the sandbox: a username). */
  from: string;
  body: string;
  /** The provider's id (Twilio's MessageSid, Meta's mid); the same id twice is one message. */
  providerSid: string;
  mediaUrls: string[];
  /**
   * Twilio's OptOutType (STOP, START, HELP) on numbers of a messaging service with Advanced Opt-Out,
   * which may have keywords of its own (ARRET, …): it counts as that keyword whatever the text.
   */
  optOutType?: string | null;
}

const OPT_OUT_TYPES: Record<string, Keyword> = { STOP: 'opt_out', START: 'opt_in', HELP: 'help' };

/**
 * Stores an inbound message and the job that answers it, in one transaction. A message whose
 * provider id was already stored is a duplicate (Twilio and Meta retry webhooks): nothing happens.
 */
export const receiveInbound = async (deps: Deps, channel: Channel, message: InboundMessage) => {
  const id = newId('channelMessage');
  const stored = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(channelMessages)
      .values({
        id,
        subaccountId: channel.connection.subaccountId,
        connectionId: channel.connection.id,
        direction: 'inbound',
        contactPhone: message.from,
        body: message.body,
        mediaUrls: message.mediaUrls,
        status: 'received',
        providerSid: message.providerSid,
        transport: channel.account.transport,
      })
      .onConflictDoNothing()
      .returning({ id: channelMessages.id });
    if (!row) return false;
    await enqueueJob(
      deps,
      {
        type: CHANNEL_INBOUND_JOB,
        payload: { messageId: id, optOutType: message.optOutType ?? null },
        subaccountId: channel.connection.subaccountId,
        accountId: channel.connection.accountId,
        idempotencyKey: `inbound:${id}`,
      },
      tx,
    );
    return true;
  });
  if (stored)
    await publishMessage(deps, { id, connectionId: channel.connection.id, status: 'received', direction: 'inbound' });
  return { duplicate: !stored, messageId: stored ? id : null };
};

/** Marks the latest campaign message to this number as replied to (or opted out of). */
const attributeToCampaign = async (deps: Deps, channel: Channel, phone: string, what: 'replied' | 'opted_out') => {
  const column = what === 'replied' ? campaignRecipients.repliedAt : campaignRecipients.optedOutAt;
  const [latest] = await deps.db
    .select({ id: campaignRecipients.id })
    .from(campaignRecipients)
    .innerJoin(campaigns, eq(campaigns.id, campaignRecipients.campaignId))
    .where(
      and(
        eq(campaigns.connectionId, channel.connection.id),
        eq(campaignRecipients.phone, phone),
        isNotNull(campaignRecipients.sentAt),
        gt(campaignRecipients.sentAt, new Date(Date.now() - REPLY_ATTRIBUTION_MS)),
        isNull(column),
      ),
    )
    .orderBy(desc(campaignRecipients.sentAt))
    .limit(1);
  if (!latest) return;
  await deps.db
    .update(campaignRecipients)
    .set(what === 'replied' ? { repliedAt: new Date() } : { optedOutAt: new Date() })
    .where(eq(campaignRecipients.id, latest.id));
};

const latestThread = async (deps: Deps, channel: Channel, phone: string) => {
  const [row] = await deps.db
    .select({ id: threads.id })
    .from(threads)
    .where(
      and(
        eq(threads.subaccountId, channel.connection.subaccountId),
        eq(threads.channelRef, channel.connection.id),
        eq(threads.contactIdentifier, phone),
      ),
    )
    .orderBy(desc(threads.lastMessageAt))
    .limit(1);
  return row?.id ?? null;
};

/** Twilio answers STOP, START and HELP on SMS numbers itself (Advanced Opt-Out); elsewhere we do. */
const confirmsKeywordsItself = (channel: Channel) =>
  channel.account.transport === 'twilio' && channel.connection.type === 'sms';

const splitFor = (channel: Channel, text: string) => splitForChannel(channel.connection.type, text);

/**
 * Answers one inbound message: on SMS and WhatsApp carrier keywords first (an opted-out number gets
 * nothing more until START), then the agent through the same reply path as the widget (thread,
 * knowledge, tools, metering, human take-over), split into the channel's message size. Instagram
 * has no carrier keywords and no phone contacts: its messages go straight to the agent.
 */
export const answerInbound = async (deps: Deps, messageId: string, optOutType: string | null = null) => {
  const [message] = await deps.db.select().from(channelMessages).where(eq(channelMessages.id, messageId));
  if (!message) return { skipped: 'message deleted' };
  const channel = await findChannel(deps.db, message.connectionId);
  if (!channel) return { skipped: 'connection deleted' };
  const subaccountId = channel.connection.subaccountId;
  const phone = message.contactPhone;
  const phoneChannel = channel.connection.type !== 'instagram';
  const keyword = phoneChannel ? (OPT_OUT_TYPES[optOutType?.toUpperCase() ?? ''] ?? keywordOf(message.body)) : null;
  const confirm = async (text: string) => {
    if (confirmsKeywordsItself(channel)) return;
    await queueOutbound(deps, channel, {
      to: phone,
      parts: [text],
      key: `keyword:${message.id}`,
      keywordReply: true,
      source: 'keyword',
      origin: 'live',
    });
  };
  if (keyword === 'opt_out') {
    // The opt-out belongs to the number and this sender: it outlives the contact row.
    await contactForPhone(deps.db, subaccountId, phone);
    await suppress(deps.db, channel, phone, { keyword: optOutType ?? message.body.trim().toUpperCase() });
    await attributeToCampaign(deps, channel, phone, 'opted_out');
    await attributeToSequence(deps, channel, phone, 'opted_out', REPLY_ATTRIBUTION_MS);
    await confirm(KEYWORD_REPLIES.opt_out);
    return { keyword };
  }
  if (keyword === 'opt_in') {
    await contactForPhone(deps.db, subaccountId, phone);
    await lift(deps.db, channel, phone);
    await confirm(KEYWORD_REPLIES.opt_in);
    return { keyword };
  }
  if (keyword === 'help') {
    const { companyName } = await getSmsSettings(deps.db, subaccountId);
    await confirm(KEYWORD_REPLIES.help(companyName));
    return { keyword };
  }
  if (phoneChannel) {
    await contactForPhone(deps.db, subaccountId, phone);
    if (await isSuppressed(deps.db, channel, phone)) return { skipped: 'opted out' };
    await attributeToCampaign(deps, channel, phone, 'replied');
    await attributeToSequence(deps, channel, phone, 'replied', REPLY_ATTRIBUTION_MS);
  } else await rememberInstagramProfile(deps, channel, phone);
  if (!channel.connection.buildId) return { skipped: 'no agent' };
  const text = message.body.trim() || (message.mediaUrls.length ? '[The contact sent an attachment]' : '');
  if (!text) return { skipped: 'empty message' };
  const agentId = channel.connection.buildId;
  // The connection id lets the gate refuse a channel paused in Launch (CONNECTION_INACTIVE).
  const target = { accountId: channel.connection.accountId, subaccountId, connectionId: channel.connection.id };
  let reply: Awaited<ReturnType<typeof replyAsAgent>>;
  try {
    // The one gate of public channels: a locked or out-of-allowance client answers nobody.
    reply = await answerVisitor(deps, target, async () =>
      replyAsAgent(deps, {
        agentId,
        accountId: channel.connection.accountId,
        subaccountId,
        threadId: await latestThread(deps, channel, phone),
        message: text,
        channel: channel.connection.type,
        channelRef: channel.connection.id,
        contactIdentifier: phone,
      }),
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONNECTION_INACTIVE')
      return { skipped: error.reason ?? error.message };
    if (error instanceof AppError && error.message === VISITOR_UNAVAILABLE) {
      // The contact reads the neutral sentence, never billing words; at most once an hour, so
      // an auto-responder on the other end cannot start an endless exchange.
      const notified = await tellUnavailable(deps, channel, phone);
      return { skipped: error.reason ?? error.message, notified };
    }
    throw error;
  }
  await deps.db.update(channelMessages).set({ threadId: reply.threadId }).where(eq(channelMessages.id, message.id));
  if (reply.humanHandled || !reply.message) return { threadId: reply.threadId, humanHandled: reply.humanHandled };
  await queueOutbound(deps, channel, {
    to: phone,
    parts: splitFor(channel, reply.message),
    key: `reply:${message.id}`,
    threadId: reply.threadId,
    source: 'agent',
    origin: reply.origin,
  });
  return { threadId: reply.threadId };
};

const UNAVAILABLE_EVERY_MS = 3_600_000;

/** Sends VISITOR_UNAVAILABLE to the contact unless it was sent to them in the last hour. */
const tellUnavailable = async (deps: Deps, channel: Channel, phone: string) => {
  const recent = await deps.db
    .select({ id: channelMessages.id })
    .from(channelMessages)
    .where(
      and(
        eq(channelMessages.connectionId, channel.connection.id),
        eq(channelMessages.contactPhone, phone),
        eq(channelMessages.direction, 'outbound'),
        eq(channelMessages.body, VISITOR_UNAVAILABLE),
        gt(channelMessages.createdAt, new Date(Date.now() - UNAVAILABLE_EVERY_MS)),
      ),
    )
    .limit(1);
  if (recent[0]) return false;
  // One notice per contact and hour window, even when two messages are answered at once: the key
  // of the window makes the second queueing add nothing.
  const window = Math.floor(Date.now() / UNAVAILABLE_EVERY_MS);
  const queued = await queueOutbound(deps, channel, {
    to: phone,
    parts: [VISITOR_UNAVAILABLE],
    key: `unavailable:${channel.connection.id}:${phone}:${window}`,
    source: 'agent',
    origin: 'live',
  });
  return queued.length > 0;
};

/** Answers an inbound message: the person who wrote is waiting, so it runs first in its queue. */
export const channelInboundJob = defineJob({
  type: CHANNEL_INBOUND_JOB,
  queue: 'messages',
  priority: 10,
  schema: z.object({ messageId: z.string(), optOutType: z.string().nullish() }),
  handler: (deps, job) => answerInbound(deps, job.payload.messageId, job.payload.optOutType ?? null),
});

const STATUS_ORDER = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'read'];

/**
 * A delivery report (Twilio's status callback): the message's state and error code, and the
 * campaign recipient's. Reports arrive out of order; a later state is never replaced by an earlier.
 */
export const applyStatus = async (
  deps: Deps,
  channel: Channel,
  report: { providerSid: string; status: string; errorCode: string | null },
) => {
  const status = report.status.toLowerCase();
  if (!STATUS_ORDER.includes(status)) return { ignored: true };
  const [row] = await deps.db
    .select()
    .from(channelMessages)
    .where(
      and(eq(channelMessages.connectionId, channel.connection.id), eq(channelMessages.providerSid, report.providerSid)),
    );
  if (!row) return { ignored: true };
  const final = ['delivered', 'undelivered', 'failed', 'read'];
  if (final.includes(row.status) && !final.includes(status)) return { ignored: true };
  const mapped = status === 'read' ? 'delivered' : status === 'undelivered' ? 'failed' : status;
  await deps.db
    .update(channelMessages)
    .set({ status: mapped, errorCode: report.errorCode, updatedAt: new Date() })
    .where(eq(channelMessages.id, row.id));
  if (row.campaignId && (mapped === 'delivered' || mapped === 'failed')) {
    await deps.db
      .update(campaignRecipients)
      .set(
        mapped === 'delivered'
          ? { status: 'delivered', deliveredAt: new Date(), updatedAt: new Date() }
          : { status: 'failed', errorCode: report.errorCode ?? 'UNDELIVERED', updatedAt: new Date() },
      )
      .where(and(eq(campaignRecipients.messageId, row.id), inArray(campaignRecipients.status, ['sent', 'delivered'])));
  }
  if (mapped === 'failed' && isPermanentFailure(report.errorCode))
    await suppressFailed(deps.db, channel, row.contactPhone, { code: report.errorCode, message: null });
  await publishMessage(deps, { ...row, status: mapped });
  return { ignored: false };
};
