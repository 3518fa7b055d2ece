import { z } from 'zod';
import { ZContactTag } from './contacts';
import { ZMessagingChannel } from './schemas';
import { ZCampaignSequence, ZCampaignSteps } from './sequences';
import { ZContentSid, ZWhatsappVariableMappings } from './whatsapp-templates';

/** Media a campaign may send: images and PDF, at most 5 MB (Twilio's limit for images on MMS and WhatsApp). */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf'] as const;
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** POST /api/channels/{connectionId}/media: an uploaded image or PDF and the address it is sent from. */
export const ZChannelMedia = z.object({
  mediaId: z.string(),
  url: z.string(),
  fileName: z.string(),
  contentType: z.enum(MEDIA_TYPES),
  size: z.number().int(),
});
export type TChannelMedia = z.infer<typeof ZChannelMedia>;

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'completed', 'cancelled'] as const;
export const ZCampaignStatus = z.enum(CAMPAIGN_STATUSES);
export type TCampaignStatus = z.infer<typeof ZCampaignStatus>;

export const ZCampaignAudience = z.discriminatedUnion('type', [
  z.object({ type: z.literal('all') }),
  z.object({ type: z.literal('tags'), tags: z.array(ZContactTag).min(1, 'Pick at least one tag').max(20) }),
  z.object({
    type: z.literal('list'),
    contactIds: z.array(z.string().max(64)).min(1, 'Pick at least one contact').max(10_000),
  }),
]);
export type TCampaignAudience = z.infer<typeof ZCampaignAudience>;

/**
 * An approved WhatsApp template picked from the connection's list (Twilio Content API): its Content
 * SID, its text as approved, and how each of its variables is filled from a contact. Campaigns made
 * before variables were mapped have no `variables`: their {{names}} are contact fields, sent as 1, 2, … in order.
 */
export const ZWhatsappTemplate = z.object({
  contentSid: ZContentSid,
  name: z.string().max(512).optional(),
  body: z.string().trim().min(1).max(1024),
  variables: ZWhatsappVariableMappings.optional(),
});

/** The template a campaign picks: the server reads its name and text from the approved list. */
export const ZWhatsappTemplateChoice = ZWhatsappTemplate.extend({
  body: z.string().trim().max(1024).optional(),
  variables: ZWhatsappVariableMappings.default({}),
});

export const ZCampaignInput = z.object({
  name: z.string().trim().min(1, 'Name the campaign').max(120),
  audience: ZCampaignAudience,
  /** The text with {{variables}} (first_name, name, phone or an imported column). */
  message: z.string().trim().max(1600).default(''),
  whatsappTemplate: ZWhatsappTemplateChoice.nullable().optional(),
  /** An image or PDF sent with the message (MMS, WhatsApp): a public address, at most 5 MB. */
  mediaUrl: z
    .url({ protocol: /^https?$/, error: 'Enter the https:// address of an image or a PDF' })
    .max(2000)
    .nullable()
    .optional(),
  /** Local date-time in the sub-account's time zone ("2026-05-01T09:00"); null = when started. */
  sendAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'A date and time such as 2026-05-01T09:00')
    .nullable()
    .optional(),
  quietHours: z
    .object({
      start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    })
    .nullable()
    .optional(),
  /** The steps after the campaign's message (a sequence); left out on an update, they stay as they are. */
  steps: ZCampaignSteps.optional(),
  /** A reply takes the recipient out of the sequence (default on). */
  stopOnReply: z.boolean().optional(),
  /** Reaching the goal (a tracked link clicked, a conversion reported) takes them out (default on). */
  stopOnGoal: z.boolean().optional(),
});
export type TCampaignInput = z.infer<typeof ZCampaignInput>;

export const ZCampaignFigures = z.object({
  total: z.number(),
  queued: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  replied: z.number(),
  /** Replied STOP within 7 days of this campaign's message. */
  optedOut: z.number(),
  skipped: z.number(),
  /** Skipped because the number had opted out of this sender before (the suppression list). */
  suppressed: z.number(),
  /**
   * Sends in doubt that could not be reconciled with the provider (it could not be asked whether
   * they went out): "Retry unsent" asks again and sends only those it does not have.
   */
  unconfirmed: z.number().optional(),
});
export type TCampaignFigures = z.infer<typeof ZCampaignFigures>;

/**
 * Why a paused campaign paused itself: its channel is paused in Launch (CONNECTION_INACTIVE), the
 * provider refused the credentials (TWILIO_AUTH_FAILED) or its dispatch failed for good; the first
 * two go on by themselves once the cause is gone.
 */
export const CAMPAIGN_HOLD_REASONS = ['channel_paused', 'auth_failed', 'dispatch_failed'] as const;
export const ZCampaignHold = z.object({
  reason: z.enum(CAMPAIGN_HOLD_REASONS),
  /** An error code of the catalogue, whose action the report offers. */
  code: z.string(),
  message: z.string(),
});
export type TCampaignHold = z.infer<typeof ZCampaignHold>;

export const ZCampaign = z.object({
  campaignId: z.string(),
  connectionId: z.string(),
  channel: ZMessagingChannel,
  name: z.string(),
  status: ZCampaignStatus,
  /** Set while the campaign is paused by itself (see ZCampaignHold); null otherwise. */
  hold: ZCampaignHold.nullable().optional(),
  audience: ZCampaignAudience,
  message: z.string(),
  whatsappTemplate: ZWhatsappTemplate.nullable(),
  mediaUrl: z.string().nullable(),
  sendAt: z.string().nullable(),
  scheduledFor: z.string().nullable(),
  timeZone: z.string(),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  figures: ZCampaignFigures,
  /** The sequence's steps with their figures; null for a campaign of one message. */
  sequence: ZCampaignSequence.nullable().optional(),
  /** Twilio error codes of failed sends with their counts. */
  failures: z.array(z.object({ errorCode: z.string(), count: z.number() })),
  /** Sent through the sandbox (its connection is one, or a message went through it): nothing reached a phone. */
  sandbox: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type TCampaign = z.infer<typeof ZCampaign>;
export const ZCampaignList = z.object({ campaigns: z.array(ZCampaign) });

/** GET …/campaigns/{campaignId}/audience: the audience as it stands, for the confirmations before sending. */
export const ZCampaignAudienceSize = z.object({
  contacts: z.number(),
  /** Skipped at the send because a send to them failed for good (the suppression list). */
  suppressed: z.number(),
  /** Skipped at the send because they opted out of this sender (STOP, or by hand). */
  optedOut: z.number().default(0),
  /** Contacts that would get the message. */
  recipients: z.number(),
  /** Of the recipients, those the campaign's quiet hours would hold if it were sent now (they get it later). */
  heldByQuietHours: z.number().default(0),
});

/**
 * GET …/campaigns/{campaignId}/estimate: what the campaign costs before it is sent. Segments are
 * counted as sending counts them (GSM-7 or UCS-2; a WhatsApp message is one); the price is the one
 * entered in the connection's settings; campaigns spend no credits of the platform.
 */
export const ZCampaignEstimate = z.object({
  audience: ZCampaignAudienceSize,
  encoding: z.enum(['GSM-7', 'UCS-2', 'whatsapp']),
  /** Segments of one message (the largest among the recipients' rendered messages). */
  segmentsPerMessage: z.number(),
  /** Segments of every recipient's message together. */
  segments: z.number(),
  /** True when segments were counted over a sample of the recipients and scaled. */
  sampled: z.boolean(),
  pricePerSegment: z.object({ amount: z.string(), currency: z.string() }).nullable(),
  /** segments × price, in the price's currency, rounded to 4 decimals; null without a price. */
  cost: z.object({ amount: z.string(), currency: z.string() }).nullable(),
  credits: z.number(),
  /** The connection sends through the sandbox: nothing reaches a phone and the provider charges nothing. */
  sandbox: z.boolean(),
});
export type TCampaignEstimate = z.infer<typeof ZCampaignEstimate>;

/** POST …/campaigns/{campaignId}/test-send: the campaign's message to one number of the agency, outside the campaign. */
export const ZCampaignTestSendRequest = z.object({
  to: z.string().trim().min(1, { error: 'Enter the number to send the test to' }).max(32),
});
export const ZCampaignTestSendResponse = z.object({
  to: z.string(),
  body: z.string(),
  messageIds: z.array(z.string()),
  sandbox: z.boolean(),
});
export type TCampaignTestSendResponse = z.infer<typeof ZCampaignTestSendResponse>;
export type TCampaignAudienceSize = z.infer<typeof ZCampaignAudienceSize>;

export const ZCampaignTimeline = z.object({
  points: z.array(
    z.object({ minute: z.string(), sent: z.number(), delivered: z.number(), failed: z.number(), replied: z.number() }),
  ),
});
export type TCampaignTimeline = z.infer<typeof ZCampaignTimeline>;
