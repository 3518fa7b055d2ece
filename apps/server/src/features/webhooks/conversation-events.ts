import { originOfChannel, reachesOutside, type TWebhookEventType } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { type DomainEventPayload, defineReaction } from '../../platform/domain-events';
import { TtlCache } from '../../platform/ttl-cache';
import { threads } from '../conversations/schema';
import { anyoneListens, emitWebhookEvent } from './deliveries';

const CONVERSATION_EVENTS: readonly TWebhookEventType[] = [
  'conversation.started',
  'message.received',
  'message.sent',
  'conversation.human_requested',
  'lead.captured',
];

/** Phrases of a visitor asking for a person; plain alternations, linear to match. */
const HUMAN_REQUEST =
  /\b(?:(?:talk|speak|chat) (?:to|with) (?:a |an |the |your |someone |some one |anyone |any one )?(?:real |live )?(?:human|person|agent|someone|somebody|representative|operator|staff|manager|owner|team)|(?:real|live) (?:human|person|agent)|human (?:agent|please|being)|customer (?:service|support) (?:agent|representative))\b/i;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}/;
/** A phone number written the usual ways: +44 7700 900123, (555) 555-0100, 07700900123. */
const PHONE = /[+(]?\d[\d\s().-]{5,22}\d/;

/** The address when its domain is a real host name (labels, then a top-level domain of letters). */
const emailAddressOf = (written: string | null): string | null => {
  if (!written) return null;
  const [local, rawDomain = ''] = written.split('@');
  const labels = rawDomain.replace(/\.+$/, '').split('.');
  const tld = labels[labels.length - 1] ?? '';
  const valid =
    labels.length >= 2 &&
    labels.every((label) => label.length > 0 && label.length <= 63 && !label.startsWith('-') && !label.endsWith('-')) &&
    /^[A-Za-z]{2,24}$/.test(tld);
  return valid ? `${local}@${labels.join('.')}`.toLowerCase() : null;
};

/**
 * A written number that looks like a phone number rather than a date, a price or an order number:
 * international (+ and 8 to 15 digits), national with a trunk 0 or an area code in brackets (9 to
 * 12 digits), or the North American 3-3-4 shape.
 */
const phoneNumberOf = (written: string): string | null => {
  const digits = written.replace(/\D/g, '');
  if (written.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (written.startsWith('0') || written.startsWith('('))
    return digits.length >= 9 && digits.length <= 12 ? digits : null;
  return /^\d{3}[\s.-]\d{3}[\s.-]\d{4}$/.test(written) ? digits : null;
};

/** The matchers of this module, checked by the tests for catastrophic backtracking. */
export const LEAD_PATTERNS = { HUMAN_REQUEST, EMAIL, PHONE };

export const asksForHuman = (text: string): boolean => HUMAN_REQUEST.test(text.slice(0, 2000).replace(/\s+/g, ' '));

/** An email address and a phone number (at least 7 digits) written in a message, when there are. */
export const leadDetailsIn = (text: string): { email: string | null; phone: string | null } => {
  const sample = text.slice(0, 2000);
  const email = emailAddressOf(EMAIL.exec(sample)?.[0] ?? null);
  const phoneText = PHONE.exec(email ? sample.replace(email, ' ') : sample)?.[0]?.trim() ?? null;
  return { email, phone: phoneText ? phoneNumberOf(phoneText) : null };
};

interface ThreadFacts {
  agentId: string;
  channel: string;
  contact: string | null;
}
const threadFacts = new TtlCache<ThreadFacts | null>(60_000);
/** Details already announced per thread, so a lead is sent once per conversation and detail. */
const announcedLeads = new TtlCache<true>(24 * 60 * 60_000, 20_000);

const factsOf = (deps: Deps, threadId: string) =>
  threadFacts.getOrLoad(threadId, async () => {
    const [row] = await deps.db
      .select({ agentId: threads.agentId, channel: threads.channel, contact: threads.contactIdentifier })
      .from(threads)
      .where(eq(threads.id, threadId))
      .limit(1);
    return row ?? null;
  });

type StoredMessageFacts = DomainEventPayload<'message.stored'>;

/**
 * The webhook events of a stored chat message: conversation started, message received or sent,
 * a visitor asking for a person, lead details written in the chat. Nothing is read or matched
 * when no endpoint of the sub-account listens, or when the message is a test's.
 */
export const announceMessage = async (deps: Deps, stored: StoredMessageFacts, tx?: Tx): Promise<void> => {
  if (!(await wantsMessage(deps, stored))) return;
  const facts: ThreadFacts | null = stored.newThread
    ? {
        agentId: stored.newThread.agentId,
        channel: stored.newThread.channel,
        contact: stored.newThread.contactIdentifier ?? null,
      }
    : await factsOf(deps, stored.threadId);
  if (stored.newThread) threadFacts.set(stored.threadId, facts);
  const thread = { threadId: stored.threadId, ...(facts ?? {}) };
  const emit = (type: TWebhookEventType, data: Record<string, unknown>) =>
    emitWebhookEvent(deps, stored.subaccountId, type, { ...thread, ...data }, stored.origin, tx);
  const { message } = stored;
  if (stored.newThread && message.role === 'user')
    await emit('conversation.started', { firstMessage: message.content });
  if (message.role !== 'user') {
    await emit('message.sent', { message });
    return;
  }
  await emit('message.received', { message: { id: message.id, role: message.role, content: message.content } });
  if (asksForHuman(message.content)) await emit('conversation.human_requested', { message: message.content });
  const lead = leadDetailsIn(message.content);
  const fresh = (detail: string | null) =>
    detail && !announcedLeads.get(`${stored.threadId}:${detail}`) ? detail : null;
  const email = fresh(lead.email);
  const phone = fresh(lead.phone);
  if (!email && !phone) return;
  await emit('lead.captured', { email, phone, name: null, source: 'chat' });
  for (const detail of [email, phone]) if (detail) announcedLeads.set(`${stored.threadId}:${detail}`, true);
};

/** Whether a stored message may have webhook events: a live one, in a sub-account with a listening endpoint. */
const wantsMessage = async (deps: Deps, stored: StoredMessageFacts) =>
  reachesOutside(stored.origin) && (await anyoneListens(deps, stored.subaccountId, CONVERSATION_EVENTS));

/** Conversations publish every stored message; its webhook events are announced here. */
export const announceStoredMessage = defineReaction({
  event: 'message.stored',
  name: 'webhooks.announce-message',
  runs: 'after-commit',
  wants: wantsMessage,
  handle: announceMessage,
});

/**
 * A site identified its signed-in user to the widget: a lead with what it said of them, once per
 * thread and address (`lead.identified` is an event once per key).
 */
export const announceIdentifiedLead = async (deps: Deps, input: IdentifiedLead, tx?: Tx): Promise<void> => {
  if (!(await wantsIdentifiedLead(deps, input))) return;
  const facts = await factsOf(deps, input.threadId);
  // The thread's channel says whose conversation it is (a demo's or a test's is not announced).
  const origin = facts ? originOfChannel(facts.channel) : 'live';
  await emitWebhookEvent(
    deps,
    input.subaccountId,
    'lead.captured',
    {
      threadId: input.threadId,
      ...(facts ?? {}),
      email: input.email,
      phone: input.phone ?? null,
      name: input.name,
      source: 'identify',
    },
    origin,
    tx,
  );
};

type IdentifiedLead = DomainEventPayload<'lead.identified'>;

const wantsIdentifiedLead = async (deps: Deps, input: IdentifiedLead) =>
  Boolean(input.email || input.phone) && (await anyoneListens(deps, input.subaccountId, ['lead.captured']));

/** The widget publishes `lead.identified` when a site identifies its visitor. */
export const announceIdentifiedVisitor = defineReaction({
  event: 'lead.identified',
  name: 'webhooks.announce-identified-lead',
  runs: 'after-commit',
  wants: wantsIdentifiedLead,
  handle: announceIdentifiedLead,
});
