import type { TWhatsappVariableMappings } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { connections } from '../connections/schema';
import { subaccounts } from '../tenancy/schema';

/**
 * How an SMS, WhatsApp or Instagram connection (a `connections` row of type sms/whatsapp/instagram)
 * sends: the sandbox, Twilio, or Meta's Graph API, with encrypted credentials; and its state.
 */
export const channelAccounts = pgTable(
  'channel_accounts',
  {
    connectionId: text('connection_id')
      .primaryKey()
      .references(() => connections.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    transport: text('transport', { enum: ['sandbox', 'twilio', 'meta'] }).notNull(),
    /**
     * pending_connection (an OAuth started and not finished; `appSlug` names the app, e.g. instagram),
     * live, or error (`statusCode`/`statusMessage`: the provider refused the credentials or the OAuth failed).
     */
    status: text('status', { enum: ['pending_connection', 'live', 'error'] })
      .notNull()
      .default('live'),
    appSlug: text('app_slug'),
    statusCode: text('status_code'),
    statusMessage: text('status_message'),
    accountSid: text('account_sid'),
    credentialKind: text('credential_kind', { enum: ['auth_token', 'api_key', 'page_token', 'oauth'] }),
    apiKeySid: text('api_key_sid'),
    /** The auth token, API key secret or Meta page access token, AES-256-GCM (platform/crypto). */
    secretEncrypted: text('secret_encrypted'),
    secretLast4: text('secret_last4'),
    /**
     * The secret that signs webhooks: Twilio's auth token (with an API key the account's auth token is
     * still needed for that), or the Meta app secret (X-Hub-Signature-256).
     */
    webhookTokenEncrypted: text('webhook_token_encrypted'),
    /** Instagram: the business account (entry.id of Meta's webhooks), its username and its Facebook page. */
    externalAccountId: text('external_account_id'),
    externalAccountName: text('external_account_name'),
    pageId: text('page_id'),
    /** Instagram: the token Meta's subscription handshake must present (hub.verify_token), encrypted. */
    verifyTokenEncrypted: text('verify_token_encrypted'),
    webhookVerifiedAt: timestamp('webhook_verified_at', { withTimezone: true }),
    /** Meta OAuth in progress: sha256 of the state's secret half, bound to the browser by a cookie; and its expiry. */
    oauthStateHash: text('oauth_state_hash'),
    oauthStateExpiresAt: timestamp('oauth_state_expires_at', { withTimezone: true }),
    /**
     * Meta OAuth granted several pages with an Instagram account: the pages to choose from, with their
     * tokens (encrypted JSON), until the agency picks one or the choice expires (`oauthStateExpiresAt`).
     */
    oauthPagesEncrypted: text('oauth_pages_encrypted'),
    senderPhone: text('sender_phone'),
    messagingServiceSid: text('messaging_service_sid'),
    sendRatePerSecond: integer('send_rate_per_second').notNull().default(0),
    /** What the provider charges the agency per SMS segment (or WhatsApp message), in millionths of the currency; for campaign estimates. */
    segmentPriceMicros: integer('segment_price_micros'),
    segmentPriceCurrency: text('segment_price_currency').notNull().default('USD'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('channel_accounts_external_account_idx').on(table.externalAccountId)],
);

/** A sub-account's messaging profile: its time zone (campaign schedules), default country, quiet hours. */
export const messagingProfiles = pgTable('messaging_profiles', {
  subaccountId: text('subaccount_id')
    .primaryKey()
    .references(() => subaccounts.id, { onDelete: 'cascade' }),
  timeZone: text('time_zone').notNull().default('UTC'),
  defaultCountry: text('default_country').notNull().default('US'),
  quietStart: text('quiet_start'),
  quietEnd: text('quiet_end'),
});

export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    name: text('name'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    timeZone: text('time_zone'),
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('contacts_subaccount_phone_idx').on(table.subaccountId, table.phone),
    index('contacts_tags_idx').using('gin', table.tags),
  ],
);

/**
 * Numbers that opted out of a sender (the person texted STOP), kept apart from contacts: deleting
 * a contact and adding it again, by hand, the API or an import, never erases an opt-out, and only
 * the person's own START to that sender lifts it. `sender` is the sending identity (`senderKeyOf`
 * in suppressions.ts: the Twilio number or messaging service, or a sandbox connection), or `*` for
 * every sender of the sub-account (set by hand from the contacts list, or recorded before this list).
 */
export const channelSuppressions = pgTable(
  'channel_suppressions',
  {
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    sender: text('sender').notNull(),
    phone: text('phone').notNull(),
    /** The connection the opt-out came through; kept when that connection is deleted. */
    connectionId: text('connection_id'),
    /**
     * keyword (the person's STOP), manual (marked from the contacts list), migrated (the old contact
     * flag) or failed (a send failed with a permanent error for the number: `errorCode`).
     */
    source: text('source', { enum: ['keyword', 'manual', 'migrated', 'failed'] }).notNull(),
    /** failed: the provider's error code (21211, 21614, 21610, 63016 …) and its message. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The word the person sent (STOP, UNSUBSCRIBE …) or Twilio's OptOutType. */
    keyword: text('keyword'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.subaccountId, table.sender, table.phone] }),
    index('channel_suppressions_phone_idx').on(table.subaccountId, table.phone),
  ],
);

/**
 * Every SMS, WhatsApp or Instagram message in or out of a connection, with its provider id (Twilio's
 * MessageSid, Meta's mid) and delivery state. `contactPhone` is the contact's address on the channel:
 * an E.164 number, or on Instagram the contact's Instagram-scoped id (the sandbox: a username).
 */
export const channelMessages = pgTable(
  'channel_messages',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id').notNull(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    contactPhone: text('contact_phone').notNull(),
    body: text('body').notNull().default(''),
    mediaUrls: jsonb('media_urls').$type<string[]>().notNull().default([]),
    contentSid: text('content_sid'),
    contentVariables: jsonb('content_variables').$type<Record<string, string>>(),
    /** queued, sending, sent, delivered, failed, undelivered, received */
    status: text('status').notNull(),
    providerSid: text('provider_sid'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    campaignId: text('campaign_id'),
    threadId: text('thread_id'),
    /** Outbound: who sent it (the agent, a person from the inbox, a campaign, a keyword confirmation). */
    source: text('source', { enum: ['agent', 'person', 'campaign', 'keyword'] }),
    /** Outbound: one message per key (campaign + contact, reply + part), kept through retries. */
    idempotencyKey: text('idempotency_key'),
    transport: text('transport', { enum: ['sandbox', 'twilio', 'meta'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('channel_messages_provider_sid_idx').on(table.connectionId, table.providerSid),
    uniqueIndex('channel_messages_idempotency_idx').on(table.idempotencyKey),
    index('channel_messages_connection_idx').on(table.connectionId, table.createdAt),
    index('channel_messages_contact_idx').on(table.connectionId, table.contactPhone, table.createdAt),
    index('channel_messages_campaign_idx').on(table.campaignId, table.sentAt),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['draft', 'scheduled', 'sending', 'paused', 'completed', 'cancelled'] })
      .notNull()
      .default('draft'),
    audience: jsonb('audience').notNull(),
    message: text('message').notNull().default(''),
    whatsappTemplate: jsonb('whatsapp_template').$type<{
      contentSid: string;
      name?: string;
      body: string;
      variables?: TWhatsappVariableMappings;
    } | null>(),
    mediaUrl: text('media_url'),
    sendAt: text('send_at'),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    timeZone: text('time_zone').notNull().default('UTC'),
    quietStart: text('quiet_start'),
    quietEnd: text('quiet_end'),
    /**
     * Why a paused campaign was paused when the agency did not pause it: its channel is paused in
     * Launch (channel_paused), the provider refused the credentials (auth_failed) or its dispatch
     * failed for good (dispatch_failed); with the error code and message the report shows.
     */
    holdReason: text('hold_reason', { enum: ['channel_paused', 'auth_failed', 'dispatch_failed'] }),
    holdCode: text('hold_code'),
    holdMessage: text('hold_message'),
    /** Bumped on every start or resume: the idempotency key of that dispatch job. */
    dispatchRound: integer('dispatch_round').notNull().default(0),
    /** The last contact id written as a recipient; null once every recipient is written. */
    recipientsCursor: text('recipients_cursor').default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('campaigns_connection_idx').on(table.connectionId, table.createdAt),
    // The campaign watch reads the campaigns under way.
    index('campaigns_active_idx').on(table.status).where(sql`${table.status} IN ('sending', 'paused')`),
  ],
);

export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactId: text('contact_id').notNull(),
    phone: text('phone').notNull(),
    /**
     * queued, sending, sent, delivered, failed, skipped, or unconfirmed: a send in doubt (its run
     * stopped between the provider call and the outcome) that could not be reconciled with the
     * provider; "Retry unsent" reconciles it again.
     */
    status: text('status').notNull().default('queued'),
    messageId: text('message_id'),
    errorCode: text('error_code'),
    /** Why a recipient was skipped (opted out, missing variables, no WhatsApp window). */
    skipReason: text('skip_reason'),
    attempts: integer('attempts').notNull().default(0),
    /** The dispatch run (job id # attempt) that claimed it while `sending`. */
    claimedBy: text('claimed_by'),
    /** When the last claim was made: reconciliation looks for the provider's messages from then on. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * The idempotency key of the send in progress (recipient id : attempt), stored with the claim
     * before the provider call and sent with it.
     */
    sendKey: text('send_key'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('campaign_recipients_contact_idx').on(table.campaignId, table.contactId),
    index('campaign_recipients_due_idx').on(table.campaignId, table.status, table.nextAttemptAt),
    index('campaign_recipients_phone_idx').on(table.phone, table.sentAt),
  ],
);

/**
 * The sandbox transport's own log of what it sent, by idempotency key: a run stopped between the
 * send and its outcome is reconciled against it as a Twilio run is against Twilio's message list.
 */
export const channelSandboxLog = pgTable(
  'channel_sandbox_log',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    connectionId: text('connection_id').notNull(),
    contactPhone: text('contact_phone').notNull(),
    providerSid: text('provider_sid').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('channel_sandbox_log_created_idx').on(table.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A file uploaded to send with a message (an image or a PDF): kept in the database so every app
 * process can serve it, at an address with an unguessable id that Twilio and Meta fetch.
 */
export const channelMedia = pgTable(
  'channel_media',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('channel_media_connection_idx').on(table.connectionId)],
);

/**
 * A link of a sent campaign message, one per recipient and original URL: the message carries
 * `{PUBLIC_URL}/l/{code}` instead, and a visit counts here before it is sent on to `url`.
 */
export const campaignLinks = pgTable(
  'campaign_links',
  {
    code: text('code').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => campaignRecipients.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Sent through the sandbox: its clicks are shown as such. */
    sandbox: boolean('sandbox').notNull().default(false),
    clicks: integer('clicks').notNull().default(0),
    /** HEAD requests (link previews, prefetchers): counted apart, never as clicks. */
    previews: integer('previews').notNull().default(0),
    firstClickedAt: timestamp('first_clicked_at', { withTimezone: true }),
    lastClickedAt: timestamp('last_clicked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('campaign_links_recipient_url_idx').on(table.recipientId, table.url),
    index('campaign_links_campaign_idx').on(table.campaignId, table.firstClickedAt),
  ],
);

/** A conversion the agency's own system reported for a recipient of a campaign. */
export const campaignConversions = pgTable(
  'campaign_conversions',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => campaignRecipients.id, { onDelete: 'cascade' }),
    value: doublePrecision('value'),
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('campaign_conversions_external_idx').on(table.campaignId, table.externalId),
    index('campaign_conversions_campaign_idx').on(table.campaignId, table.createdAt),
  ],
);
