import { z } from 'zod';
import { ZContactTag } from './contacts';
import { ZMessagingChannel } from './schemas';

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

/** An approved WhatsApp template: its Twilio Content SID and its text with {{variables}} (sent as 1, 2, … in order). */
export const ZWhatsappTemplate = z.object({
  contentSid: z
    .string()
    .trim()
    .regex(/^HX[0-9a-fA-F]{32}$/, 'The template Content SID starts with HX followed by 32 hexadecimal characters'),
  body: z.string().trim().min(1).max(1024),
});

export const ZCampaignInput = z.object({
  name: z.string().trim().min(1, 'Name the campaign').max(120),
  audience: ZCampaignAudience,
  /** The text with {{variables}} (first_name, name, phone or an imported column). */
  message: z.string().trim().max(1600).default(''),
  whatsappTemplate: ZWhatsappTemplate.nullable().optional(),
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

export const ZCampaignTimeline = z.object({
  points: z.array(
    z.object({ minute: z.string(), sent: z.number(), delivered: z.number(), failed: z.number(), replied: z.number() }),
  ),
});
export type TCampaignTimeline = z.infer<typeof ZCampaignTimeline>;
