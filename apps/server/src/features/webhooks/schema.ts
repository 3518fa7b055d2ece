import type { TWebhookEventType } from '@switchboard/core';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { subaccounts } from '../tenancy/schema';

/** An outbound webhook endpoint of a sub-account: where its chosen events are POSTed, signed. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: jsonb('events').$type<TWebhookEventType[]>().notNull(),
    /** The `whsec_…` signing secret, encrypted at rest like provider keys. */
    secretEncrypted: text('secret_encrypted').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('webhook_endpoints_subaccount_idx').on(table.subaccountId)],
);

/**
 * One event sent to one endpoint, with the outcome of its latest attempt. Its `eventId` is the
 * `webhook-id` header: the same on every retry and resend, so receivers can ignore duplicates.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    /** The exact JSON body sent (and signed). */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (table) => [index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt)],
);
