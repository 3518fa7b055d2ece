import { z } from 'zod';

/** The path of a campaign's short links on the platform's domain: `{PUBLIC_URL}/l/{code}`. */
export const SHORT_LINK_PREFIX = '/l/';
/** Length of a short link's code (base62, from a secure random source). */
export const SHORT_LINK_CODE_LENGTH = 9;

/** GET …/campaigns/{campaignId}/tracking: what the campaign's message led to. */
export const ZCampaignTracking = z.object({
  sent: z.number(),
  links: z.number(),
  clicks: z.number(),
  uniqueClickers: z.number(),
  /** HEAD requests to the links (previews, prefetchers), not counted as clicks. */
  previews: z.number(),
  replies: z.number(),
  /** Conversions the agency's system reported (POST …/conversions). */
  reported: z.number(),
  reportedValue: z.number(),
  /** Recipients who replied, clicked or were reported as converted. */
  converted: z.number(),
  /** The links were sent through the sandbox. */
  sandbox: z.boolean(),
  bucket: z.enum(['hour', 'day']),
  points: z.array(z.object({ at: z.string(), clicks: z.number(), replies: z.number(), reported: z.number() })),
});
export type TCampaignTracking = z.infer<typeof ZCampaignTracking>;

/** POST …/campaigns/{campaignId}/conversions: the agency's system reports a recipient's conversion. */
export const ZCampaignConversionInput = z
  .object({
    contactId: z.string().trim().min(1).max(64).optional(),
    phone: z.string().trim().min(1).max(32).optional(),
    value: z.number().finite().min(0).max(1e12).optional(),
    externalId: z.string().trim().min(1).max(200).optional(),
  })
  .refine((body) => Boolean(body.contactId || body.phone), {
    message: 'Give the contactId or the phone of the recipient',
  });
export type TCampaignConversionInput = z.infer<typeof ZCampaignConversionInput>;
export const ZCampaignConversion = z.object({
  conversionId: z.string(),
  recipientId: z.string(),
  value: z.number().nullable(),
  externalId: z.string().nullable(),
  createdAt: z.string(),
  /** False when the external id was already recorded: the earlier conversion is returned. */
  created: z.boolean(),
});
export type TCampaignConversion = z.infer<typeof ZCampaignConversion>;

/** GET …/campaigns/{campaignId}/replies: what the recipients answered after the send. */
export const ZCampaignReplies = z.object({
  replies: z.array(
    z.object({
      messageId: z.string(),
      /** The conversation in the team inbox (`/{subaccountId}/inbox?thread=…`). */
      threadId: z.string().nullable(),
      contactId: z.string(),
      phone: z.string(),
      name: z.string().nullable(),
      body: z.string(),
      at: z.string(),
    }),
  ),
});
export type TCampaignReplies = z.infer<typeof ZCampaignReplies>;
