import { z } from 'zod';
import { ZToolCallView } from '../conversations/schemas';

/** A conversation of a widget in the agency's inbox. */
export const ZInboxThread = z.object({
  threadId: z.string(),
  contactIdentifier: z.string().nullable(),
  /** Who the contact is as the channel reports it (Instagram: username and name), when it could be read. */
  contactUsername: z.string().nullable().optional(),
  contactName: z.string().nullable().optional(),
  lastMessage: z.string(),
  lastMessageAt: z.string(),
  messageCount: z.number(),
  handledByUserId: z.string().nullable(),
  createdAt: z.string(),
});
export type TInboxThread = z.infer<typeof ZInboxThread>;

export const ZInboxThreadList = z.object({
  threads: z.array(ZInboxThread),
  page: z.number(),
  limit: z.number(),
  hasMore: z.boolean(),
});
export type TInboxThreadList = z.infer<typeof ZInboxThreadList>;

export const ZInboxMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant', 'human']),
  content: z.string(),
  /** The tools the agent called for this reply, with what each answered (an error included). */
  toolCalls: z.array(ZToolCallView).default([]),
  /** `campaign`: sent by a campaign (shown as such), not by the agent or a person. */
  source: z.enum(['campaign']).nullable().optional(),
  createdAt: z.string(),
});
export type TInboxMessage = z.infer<typeof ZInboxMessage>;

export const ZInboxTranscript = z.object({ thread: ZInboxThread, messages: z.array(ZInboxMessage) });
export type TInboxTranscript = z.infer<typeof ZInboxTranscript>;

/** POST .../conversations/{threadId}/takeover: a person takes the thread (true) or hands it back to the agent. */
export const ZTakeoverRequest = z.object({ takeOver: z.boolean() });
/** POST .../conversations/{threadId}/messages: a person's reply to the visitor. */
export const ZHumanReplyRequest = z.object({
  content: z
    .string()
    .trim()
    .min(1, { error: 'Message is required' })
    .max(4000, { error: 'Use at most 4000 characters' }),
  /** SMS and WhatsApp threads: one image or PDF (an uploaded file's address) sent with the reply. */
  mediaUrls: z.array(z.string().max(2000)).max(1, { error: 'Attach one file at most' }).optional(),
});
