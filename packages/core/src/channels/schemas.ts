import { z } from 'zod';

/** Messaging channels of a sub-account, answered by an agent and used by campaigns. */
export const MESSAGING_CHANNELS = ['sms', 'whatsapp'] as const;
export const ZMessagingChannel = z.enum(MESSAGING_CHANNELS);
export type TMessagingChannel = z.infer<typeof ZMessagingChannel>;

/** Every channel that answers contacts through a `channel_accounts` transport: the messaging channels and Instagram. */
export const CHANNEL_TYPES = ['sms', 'whatsapp', 'instagram'] as const;
export const ZChannelType = z.enum(CHANNEL_TYPES);
export type TChannelType = z.infer<typeof ZChannelType>;

/** How a connection's messages travel: Twilio, Meta's Graph API, or the sandbox inside the app (no account needed). */
export const ZTransportKind = z.enum(['sandbox', 'twilio', 'meta']);
export type TTransportKind = z.infer<typeof ZTransportKind>;

export const INVALID_NUMBER_MESSAGE = 'E.164 format required, for example +15555555555';
export const ZE164 = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, INVALID_NUMBER_MESSAGE);

/** Twilio credentials: the Account SID with its auth token, or with an API key (SK…) and its secret. */
export const ZTwilioCredentials = z
  .object({
    accountSid: z
      .string()
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'The Account SID starts with AC followed by 32 hexadecimal characters'),
    authToken: z.string().trim().min(16, 'Paste the whole auth token').max(128).optional(),
    apiKeySid: z
      .string()
      .trim()
      .regex(/^SK[0-9a-fA-F]{32}$/, 'The API key SID starts with SK followed by 32 hexadecimal characters')
      .optional(),
    apiKeySecret: z.string().trim().min(16, 'Paste the whole API key secret').max(128).optional(),
  })
  .refine((value) => Boolean(value.authToken) || Boolean(value.apiKeySid && value.apiKeySecret), {
    message: 'Enter the auth token, or an API key SID with its secret',
    path: ['authToken'],
  });
export type TTwilioCredentials = z.infer<typeof ZTwilioCredentials>;

/**
 * Instagram through Meta's Messenger Platform: the Facebook page's access token (the page linked to
 * the Instagram business account) and the Meta app's secret (it signs the webhooks).
 */
export const ZMetaCredentials = z.object({
  pageAccessToken: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_\-|.]{20,1000}$/, 'Paste the whole page access token (letters and digits, as Meta shows it)'),
  appSecret: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{32}$/, 'The app secret is 32 hexadecimal characters (App settings → Basic in Meta)'),
});
export type TMetaCredentials = z.infer<typeof ZMetaCredentials>;

export const ZChannelStatus = z.enum(['pending_connection', 'live', 'error']);
export type TChannelStatus = z.infer<typeof ZChannelStatus>;

/** The sender: a phone number (a WhatsApp-enabled one for WhatsApp) or a Twilio messaging service. */
export const ZSender = z
  .object({
    phoneNumber: ZE164.nullable().optional(),
    messagingServiceSid: z
      .string()
      .trim()
      .regex(/^MG[0-9a-fA-F]{32}$/, 'The messaging service SID starts with MG followed by 32 hexadecimal characters')
      .nullable()
      .optional(),
  })
  .refine((value) => Boolean(value.phoneNumber) || Boolean(value.messagingServiceSid), {
    message: 'Enter the sending phone number or a messaging service SID',
    path: ['phoneNumber'],
  });
export type TSender = z.infer<typeof ZSender>;

/**
 * POST /api/channels: an SMS, WhatsApp or Instagram agent of a sub-account. Without Twilio (or, for
 * Instagram, Meta) credentials it uses the sandbox.
 */
export const ZCreateChannelConnectionRequest = z.object({
  subaccountId: z.string().max(64),
  type: ZChannelType,
  buildId: z.string().max(64),
  connectionName: z.string().trim().min(1).max(80).optional(),
  twilio: ZTwilioCredentials.optional(),
  meta: ZMetaCredentials.optional(),
  sender: ZSender.optional(),
  /** Messages per second per sender for campaigns; 0 = as fast as the transport takes them. */
  sendRatePerSecond: z.number().int().min(0).max(1000).optional(),
});
export type TCreateChannelConnectionRequest = z.infer<typeof ZCreateChannelConnectionRequest>;

/**
 * What the provider charges the agency for one SMS segment (or one WhatsApp message), as the agency
 * reads it on its provider's price list: a decimal amount with at most 6 decimals, and its currency.
 */
export const ZSegmentPrice = z.object({
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,6})?$/, { error: 'Enter a price such as 0.0079 (at most 6 decimals)' })
    .refine((value) => Number(value) > 0 && Number(value) <= 100, { error: 'Enter a price above 0 and at most 100' }),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: 'Enter a three-letter currency code such as USD' })
    .transform((value) => value.toUpperCase()),
});
export type TSegmentPrice = z.infer<typeof ZSegmentPrice>;

/** PATCH /api/channels/{connectionId}: agent, name, credentials (null = back to the sandbox), sender, rate. */
export const ZUpdateChannelConnectionRequest = z
  .object({
    buildId: z.string().max(64).optional(),
    connectionName: z.string().trim().min(1).max(80).optional(),
    twilio: ZTwilioCredentials.nullable().optional(),
    meta: ZMetaCredentials.nullable().optional(),
    sender: ZSender.optional(),
    sendRatePerSecond: z.number().int().min(0).max(1000).optional(),
    /** The provider's price per segment for campaign estimates; null forgets it. */
    segmentPrice: ZSegmentPrice.nullable().optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type TUpdateChannelConnectionRequest = z.infer<typeof ZUpdateChannelConnectionRequest>;

export const ZChannelConnection = z.object({
  connectionId: z.string(),
  subaccountId: z.string(),
  type: ZChannelType,
  /**
   * The connection's state: pending_connection (Meta's OAuth started, not finished; appSlug says
   * which app), live, or error (statusCode says why: the provider refused the credentials). A
   * connection that does not exist is "not connected".
   */
  status: ZChannelStatus,
  appSlug: z.string().nullable(),
  statusCode: z.string().nullable(),
  statusMessage: z.string().nullable(),
  connectionName: z.string(),
  buildId: z.string().nullable(),
  transport: ZTransportKind,
  accountSid: z.string().nullable(),
  /** Last four characters of the stored secret (auth token or API key secret); never the secret. */
  secretLast4: z.string().nullable(),
  credentialKind: z.enum(['auth_token', 'api_key', 'page_token', 'oauth']).nullable(),
  sender: z.object({ phoneNumber: z.string().nullable(), messagingServiceSid: z.string().nullable() }),
  sendRatePerSecond: z.number(),
  /** The provider's price per segment the agency entered (campaign estimates), or null. */
  segmentPrice: z.object({ amount: z.string(), currency: z.string() }).nullable().optional(),
  /** Paste into Twilio as the number's "A message comes in" and status callback URL (Instagram: Meta's callback URL). */
  webhookUrl: z.string(),
  /**
   * Why inbound webhooks will be refused although the connection sends (a Twilio API key without
   * the account's auth token, which signs Twilio's webhooks); null when they are accepted.
   */
  webhookWarning: z.string().nullable().optional(),
  /** Instagram: the business account the connection answers for, and the webhook's verify token. */
  instagram: z
    .object({
      accountId: z.string().nullable(),
      username: z.string().nullable(),
      pageId: z.string().nullable(),
      verifyToken: z.string().nullable(),
      webhookVerifiedAt: z.string().nullable(),
    })
    .nullable(),
  verifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TChannelConnection = z.infer<typeof ZChannelConnection>;
export const ZChannelConnectionList = z.object({
  connections: z.array(ZChannelConnection),
  /** Whether this server runs the sandbox (off in production unless MESSAGING_SANDBOX=true). */
  sandboxAvailable: z.boolean(),
});
export type TChannelConnectionList = z.infer<typeof ZChannelConnectionList>;

/** Said when a Twilio connection with an API key has no auth token to check its inbound webhooks with. */
export const TWILIO_WEBHOOK_TOKEN_MISSING =
  'Replies will not reach the agent: Twilio signs its webhooks with the account’s auth token, and this connection has only an API key. Add the auth token (Settings → Update Credentials) so inbound messages, STOPs and delivery reports are accepted; until then every one is refused.';

/** Said on every screen and export that shows messages of the sandbox transport. */
export const SANDBOX_NOTICE = 'Sandbox — nothing was sent';

/** A message of a connection as the sandbox phone and the conversation views show it. */
export const ZChannelMessage = z.object({
  messageId: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  contactPhone: z.string(),
  body: z.string(),
  mediaUrls: z.array(z.string()),
  status: z.string(),
  errorCode: z.string().nullable(),
  campaignId: z.string().nullable(),
  transport: ZTransportKind,
  createdAt: z.string(),
});
export type TChannelMessage = z.infer<typeof ZChannelMessage>;
/** GET /api/channels/{connectionId}/messages: a page, oldest first; `hasMore`: older messages remain (`before`). */
export const ZChannelMessageList = z.object({ messages: z.array(ZChannelMessage), hasMore: z.boolean() });
export type TChannelMessageList = z.infer<typeof ZChannelMessageList>;

/**
 * POST /api/channels/{connectionId}/sandbox/inbound: the sandbox phone texts the agent. `from` is
 * an E.164 number (SMS, WhatsApp) or an Instagram username (Instagram), checked per channel.
 */
export const ZSandboxInboundRequest = z.object({
  from: z.string().trim().min(1, 'Enter who is writing').max(40),
  body: z.string().max(1600).default(''),
  mediaUrls: z.array(z.url().max(2000)).max(10).optional(),
});
export type TSandboxInboundRequest = z.infer<typeof ZSandboxInboundRequest>;

/** An Instagram username as the sandbox takes it (letters, digits, dots and underscores; 30 at most). */
export const INSTAGRAM_USERNAME = /^[A-Za-z0-9._]{1,30}$/;

/** GET /api/channels/instagram/setup: whether Meta's OAuth is configured on this server. */
export const ZInstagramSetup = z.object({ oauthAvailable: z.boolean(), graphUrl: z.string() });
export type TInstagramSetup = z.infer<typeof ZInstagramSetup>;

/** POST /api/channels/instagram/oauth/start: begins Meta's OAuth for a new Instagram agent. */
export const ZInstagramOauthStartRequest = z.object({
  subaccountId: z.string().max(64),
  buildId: z.string().max(64),
});
export const ZInstagramOauthStart = z.object({ connectionId: z.string(), url: z.string() });

/** A Facebook page with an Instagram account that "Connect with Meta" shared (no token). */
export const ZInstagramPageOption = z.object({
  pageId: z.string(),
  pageName: z.string().nullable(),
  instagramAccountId: z.string(),
  username: z.string().nullable(),
});
export type TInstagramPageOption = z.infer<typeof ZInstagramPageOption>;

/** GET /api/channels/:connectionId/instagram/pages: the pages to choose from, until `expiresAt`. */
export const ZInstagramPageChoice = z.object({ pages: z.array(ZInstagramPageOption), expiresAt: z.string() });
export type TInstagramPageChoice = z.infer<typeof ZInstagramPageChoice>;

/** POST /api/channels/:connectionId/instagram/page: the page the agency picked. */
export const ZChooseInstagramPageRequest = z.object({ pageId: z.string().trim().min(1).max(64) });
export type TChooseInstagramPageRequest = z.infer<typeof ZChooseInstagramPageRequest>;
