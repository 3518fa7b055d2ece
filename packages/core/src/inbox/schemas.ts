import { z } from 'zod';
import { ZPageQuery } from '../http/pagination';

/** The channels a person answers in the inbox (test, demo, API and evaluation chats are not there). */
export const INBOX_CHANNELS = ['widget', 'website-block', 'sms', 'whatsapp', 'instagram'] as const;
export type TInboxChannel = (typeof INBOX_CHANNELS)[number];

/** Label colours: each readable with white text in both themes. */
export const LABEL_COLORS = ['gray', 'red', 'orange', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type TLabelColor = (typeof LABEL_COLORS)[number];

export const INBOX_LIMITS = {
  labelsPerSubaccount: 50,
  labelsPerThread: 10,
  labelName: 40,
  cannedRepliesPerSubaccount: 200,
  cannedTitle: 80,
  cannedContent: 4000,
  contactName: 120,
  contactNotes: 4000,
} as const;

const name = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `${what} is required` })
    .max(max, { error: `Use at most ${max} characters` });

/** A label of a sub-account, applied to threads to sort the inbox. */
export const ZInboxLabel = z.object({ labelId: z.string(), name: z.string(), color: z.enum(LABEL_COLORS) });
export type TInboxLabel = z.infer<typeof ZInboxLabel>;
export const ZInboxLabelList = z.object({ labels: z.array(ZInboxLabel) });
export type TInboxLabelList = z.infer<typeof ZInboxLabelList>;

/** POST …/inbox/labels: a new label (names are unique in the sub-account, whatever their case). */
export const ZCreateLabelRequest = z.object({
  name: name(INBOX_LIMITS.labelName, 'Name'),
  color: z.enum(LABEL_COLORS).default('gray'),
});
export type TCreateLabelRequest = z.infer<typeof ZCreateLabelRequest>;
/** PATCH …/inbox/labels/{labelId}: rename or recolour. */
export const ZUpdateLabelRequest = z
  .object({ name: name(INBOX_LIMITS.labelName, 'Name').optional(), color: z.enum(LABEL_COLORS).optional() })
  .refine((body) => body.name !== undefined || body.color !== undefined, { error: 'Give a name or a colour' });
export type TUpdateLabelRequest = z.infer<typeof ZUpdateLabelRequest>;

/** PUT …/inbox/threads/{threadId}/labels: the labels the thread carries from now on. */
export const ZThreadLabelsRequest = z.object({
  labelIds: z.array(z.string().max(64)).max(INBOX_LIMITS.labelsPerThread, {
    error: `A conversation carries at most ${INBOX_LIMITS.labelsPerThread} labels`,
  }),
});
export type TThreadLabelsRequest = z.infer<typeof ZThreadLabelsRequest>;

/** PUT …/inbox/threads/{threadId}/assignee: a person of the sub-account, or null to unassign. */
export const ZAssignRequest = z.object({ userId: z.string().max(64).nullable() });
export type TAssignRequest = z.infer<typeof ZAssignRequest>;

/** A saved answer a person inserts in the reply box (type "/" and choose). */
export const ZCannedReply = z.object({ cannedReplyId: z.string(), title: z.string(), content: z.string() });
export type TCannedReply = z.infer<typeof ZCannedReply>;
export const ZCannedReplyList = z.object({ cannedReplies: z.array(ZCannedReply) });
export type TCannedReplyList = z.infer<typeof ZCannedReplyList>;
export const ZCannedReplyInput = z.object({
  title: name(INBOX_LIMITS.cannedTitle, 'Title'),
  content: name(INBOX_LIMITS.cannedContent, 'Text'),
});
export type TCannedReplyInput = z.infer<typeof ZCannedReplyInput>;

/** Who may be given a conversation: the sub-account's people who can answer (not viewers). */
export const ZInboxAssignee = z.object({ userId: z.string(), name: z.string().nullable(), email: z.string() });
export type TInboxAssignee = z.infer<typeof ZInboxAssignee>;
export const ZInboxAssigneeList = z.object({ assignees: z.array(ZInboxAssignee) });
export type TInboxAssigneeList = z.infer<typeof ZInboxAssigneeList>;

/** GET …/inbox/threads: every channel's conversations, filtered; the filters combine. */
export const ZTeamInboxQuery = ZPageQuery.extend({
  channel: z.enum(INBOX_CHANNELS).optional(),
  label: z.string().max(64).optional(),
  /** `me`, `none` (nobody), or a user id. */
  assignee: z.string().max(64).optional(),
});
export type TTeamInboxQuery = z.infer<typeof ZTeamInboxQuery>;

export const ZTeamInboxThread = z.object({
  threadId: z.string(),
  channel: z.enum(INBOX_CHANNELS),
  /** The connection the thread came through (its inbox and transcript routes); null when it was deleted. */
  connectionId: z.string().nullable(),
  connectionName: z.string().nullable(),
  contactIdentifier: z.string().nullable(),
  contactName: z.string().nullable(),
  lastMessage: z.string(),
  lastMessageAt: z.string(),
  messageCount: z.number(),
  handledByUserId: z.string().nullable(),
  assignedUserId: z.string().nullable(),
  labelIds: z.array(z.string()),
});
export type TTeamInboxThread = z.infer<typeof ZTeamInboxThread>;
export const ZTeamInboxThreadList = z.object({
  threads: z.array(ZTeamInboxThread),
  page: z.number(),
  limit: z.number(),
  hasMore: z.boolean(),
});
export type TTeamInboxThreadList = z.infer<typeof ZTeamInboxThreadList>;

/** The person behind a conversation, and every conversation they had with the sub-account. */
export const ZContactProfile = z.object({
  contactIdentifier: z.string().nullable(),
  /** `phone` for SMS and WhatsApp, `username` for Instagram, `visitor` on the website. */
  kind: z.enum(['phone', 'username', 'visitor']),
  name: z.string().nullable(),
  notes: z.string(),
  threads: z.array(ZTeamInboxThread),
});
export type TContactProfile = z.infer<typeof ZContactProfile>;
export const ZContactProfileUpdate = z
  .object({
    name: z
      .string()
      .trim()
      .max(INBOX_LIMITS.contactName, { error: `Use at most ${INBOX_LIMITS.contactName} characters` })
      .optional(),
    notes: z
      .string()
      .max(INBOX_LIMITS.contactNotes, { error: `Use at most ${INBOX_LIMITS.contactNotes} characters` })
      .optional(),
  })
  .refine((body) => body.name !== undefined || body.notes !== undefined, { error: 'Give a name or notes' });
export type TContactProfileUpdate = z.infer<typeof ZContactProfileUpdate>;
