import { z } from 'zod';

/** Messaging channels of a sub-account, answered by an agent and used by campaigns. */
export const MESSAGING_CHANNELS = ['sms', 'whatsapp'] as const;
export const ZMessagingChannel = z.enum(MESSAGING_CHANNELS);
export type TMessagingChannel = z.infer<typeof ZMessagingChannel>;

/** How a connection's messages travel: Twilio, or the sandbox phone inside the app (no account needed). */
export const ZTransportKind = z.enum(['sandbox', 'twilio']);
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

/** POST /api/channels: an SMS or WhatsApp agent of a sub-account. Without Twilio credentials it uses the sandbox. */
export const ZCreateChannelConnectionRequest = z.object({
  subaccountId: z.string().max(64),
  type: ZMessagingChannel,
  buildId: z.string().max(64),
  connectionName: z.string().trim().min(1).max(80).optional(),
  twilio: ZTwilioCredentials.optional(),
  sender: ZSender.optional(),
  /** Messages per second per sender for campaigns; 0 = as fast as the transport takes them. */
  sendRatePerSecond: z.number().int().min(0).max(1000).optional(),
});
export type TCreateChannelConnectionRequest = z.infer<typeof ZCreateChannelConnectionRequest>;

/** PATCH /api/channels/{connectionId}: agent, name, credentials (null = back to the sandbox), sender, rate. */
export const ZUpdateChannelConnectionRequest = z
  .object({
    buildId: z.string().max(64).optional(),
    connectionName: z.string().trim().min(1).max(80).optional(),
    twilio: ZTwilioCredentials.nullable().optional(),
    sender: ZSender.optional(),
    sendRatePerSecond: z.number().int().min(0).max(1000).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type TUpdateChannelConnectionRequest = z.infer<typeof ZUpdateChannelConnectionRequest>;

export const ZChannelConnection = z.object({
  connectionId: z.string(),
  subaccountId: z.string(),
  type: ZMessagingChannel,
  connectionName: z.string(),
  buildId: z.string().nullable(),
  transport: ZTransportKind,
  accountSid: z.string().nullable(),
  /** Last four characters of the stored secret (auth token or API key secret); never the secret. */
  secretLast4: z.string().nullable(),
  credentialKind: z.enum(['auth_token', 'api_key']).nullable(),
  sender: z.object({ phoneNumber: z.string().nullable(), messagingServiceSid: z.string().nullable() }),
  sendRatePerSecond: z.number(),
  /** Paste into Twilio as the number's "A message comes in" and status callback URL. */
  webhookUrl: z.string(),
  verifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TChannelConnection = z.infer<typeof ZChannelConnection>;
export const ZChannelConnectionList = z.object({ connections: z.array(ZChannelConnection) });

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
export const ZChannelMessageList = z.object({ messages: z.array(ZChannelMessage) });

/** POST /api/channels/{connectionId}/sandbox/inbound: the sandbox phone texts the agent. */
export const ZSandboxInboundRequest = z.object({
  from: ZE164,
  body: z.string().max(1600).default(''),
  mediaUrls: z.array(z.url().max(2000)).max(10).optional(),
});
export type TSandboxInboundRequest = z.infer<typeof ZSandboxInboundRequest>;
