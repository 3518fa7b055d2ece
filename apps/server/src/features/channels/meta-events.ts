import { createHmac } from 'node:crypto';
import type { InboundMessage } from './inbound';
import { safeEqual } from './instagram';

/** Meta's X-Hub-Signature-256: "sha256=" + HMAC-SHA256 of the raw body with the app secret, compared in constant time. */
export const metaSignatureValid = (rawBody: Buffer, header: unknown, appSecret: string) => {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest('hex');
  return safeEqual(header.slice('sha256='.length).toLowerCase(), expected);
};

interface MetaAttachment {
  type?: string;
  payload?: { url?: string };
}

interface MetaMessagingEvent {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    is_deleted?: boolean;
    is_unsupported?: boolean;
    attachments?: MetaAttachment[];
    reply_to?: { story?: { url?: string; id?: string }; mid?: string };
  };
  postback?: { mid?: string; title?: string; payload?: string };
}

export interface MetaWebhookBody {
  object?: string;
  entry?: { id?: string; time?: number; messaging?: MetaMessagingEvent[] }[];
}

/** Why an event of a webhook was not stored (for the log and the tests). */
export type IgnoredReason = 'echo' | 'other_account' | 'not_a_message' | 'bad_sender';

/** A direct message and the Instagram account (entry.id) it was sent to. */
export type AccountMessage = InboundMessage & { accountId: string };

const IG_ID = /^\d{1,30}$/;
const objectOf = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const arrayOf = <T = Record<string, unknown>>(value: unknown): T[] =>
  Array.isArray(value) ? (value.filter((item) => objectOf(item)) as T[]) : [];
const stringOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const httpsUrl = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 2000 && /^https:\/\//.test(value);

/**
 * The direct messages of one webhook body, each with the Instagram account it was sent to: texts,
 * attachments, story replies and story mentions (each a message of the contact's thread), and
 * postbacks (a tapped button, as its title). Echoes of the business's own messages, events whose
 * recipient is not the entry's account, reads and reactions are left out.
 */
export const messagesOf = (body: MetaWebhookBody) => {
  const messages: AccountMessage[] = [];
  const ignored: IgnoredReason[] = [];
  // Whatever the JSON holds: only objects, arrays and strings where Meta puts them are read.
  for (const entry of arrayOf(objectOf(body)?.entry)) {
    const accountId = typeof entry.id === 'string' && IG_ID.test(entry.id) ? entry.id : null;
    for (const event of arrayOf<MetaMessagingEvent>(entry.messaging)) {
      const message = objectOf(event.message) as MetaMessagingEvent['message'] | null;
      const echo = message?.is_echo === true;
      const recipient = stringOf(objectOf(event.recipient)?.id);
      if (!accountId || (recipient ?? accountId) !== accountId) {
        ignored.push(echo ? 'echo' : 'other_account');
        continue;
      }
      if (echo) {
        ignored.push('echo');
        continue;
      }
      const from = stringOf(objectOf(event.sender)?.id) ?? '';
      if (!IG_ID.test(from)) {
        ignored.push('bad_sender');
        continue;
      }
      const mid = stringOf(message?.mid);
      if (message && mid && message.is_deleted !== true) {
        const attachments = arrayOf<MetaAttachment>(message.attachments).slice(0, 10);
        const mention = attachments.some((attachment) => attachment.type === 'story_mention');
        const story = objectOf(objectOf(message.reply_to)?.story) as { url?: unknown } | null;
        const text = (stringOf(message.text) ?? '').slice(0, 2000);
        const body = mention
          ? `[Mentioned you in their story]${text ? ` ${text}` : ''}`
          : story
            ? `[Replied to your story] ${text}`.trim()
            : message.is_unsupported === true && !text
              ? '[The contact sent a message type Instagram does not share]'
              : text;
        const mediaUrls = [...attachments.map((attachment) => objectOf(attachment.payload)?.url), story?.url].filter(
          httpsUrl,
        );
        messages.push({ accountId, from, body, providerSid: mid.slice(0, 200), mediaUrls });
        continue;
      }
      const postback = objectOf(event.postback);
      const postbackMid = stringOf(postback?.mid);
      if (postback && postbackMid) {
        const title = (stringOf(postback.title) ?? stringOf(postback.payload) ?? '').slice(0, 1000);
        messages.push({ accountId, from, body: title, providerSid: postbackMid.slice(0, 200), mediaUrls: [] });
        continue;
      }
      ignored.push('not_a_message');
    }
  }
  return { messages, ignored };
};
