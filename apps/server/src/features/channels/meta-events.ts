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
  for (const entry of body.entry ?? []) {
    const accountId = typeof entry.id === 'string' && IG_ID.test(entry.id) ? entry.id : null;
    for (const event of entry.messaging ?? []) {
      if (!accountId || (event.recipient?.id ?? accountId) !== accountId) {
        ignored.push(event.message?.is_echo ? 'echo' : 'other_account');
        continue;
      }
      if (event.message?.is_echo) {
        ignored.push('echo');
        continue;
      }
      const from = event.sender?.id ?? '';
      if (!IG_ID.test(from)) {
        ignored.push('bad_sender');
        continue;
      }
      const message = event.message;
      if (message?.mid && !message.is_deleted) {
        const attachments = (message.attachments ?? []).slice(0, 10);
        const mention = attachments.some((attachment) => attachment.type === 'story_mention');
        const story = message.reply_to?.story;
        const text = (message.text ?? '').slice(0, 2000);
        const body = mention
          ? `[Mentioned you in their story]${text ? ` ${text}` : ''}`
          : story
            ? `[Replied to your story] ${text}`.trim()
            : message.is_unsupported && !text
              ? '[The contact sent a message type Instagram does not share]'
              : text;
        const mediaUrls = [...attachments.map((attachment) => attachment.payload?.url), story?.url].filter(httpsUrl);
        messages.push({ accountId, from, body, providerSid: message.mid.slice(0, 200), mediaUrls });
        continue;
      }
      if (event.postback?.mid) {
        const title = (event.postback.title ?? event.postback.payload ?? '').slice(0, 1000);
        messages.push({ accountId, from, body: title, providerSid: event.postback.mid.slice(0, 200), mediaUrls: [] });
        continue;
      }
      ignored.push('not_a_message');
    }
  }
  return { messages, ignored };
};
