import type { TDiscoveredTool } from '@switchboard/core';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, subaccounts } from '../tenancy/schema';

/**
 * A sub-account's connection to an app (spec: connection records with status and app_slug): one
 * per app, through Composio (its connected-account id) or the sandbox catalogue.
 */
export const integrationConnections = pgTable(
  'integration_connections',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    appSlug: text('app_slug').notNull(),
    appName: text('app_name').notNull(),
    status: text('status', { enum: ['pending_connection', 'connected', 'failed', 'auth_required'] }).notNull(),
    authKind: text('auth_kind', { enum: ['oauth', 'api_key'] }).notNull(),
    /** Composio's connected-account id (`ca_…`); the sandbox's own id in sandbox mode. */
    externalId: text('external_id'),
    sandbox: boolean('sandbox').notNull().default(false),
    /** The secret the OAuth callback carries back (cleared once connected). */
    oauthState: text('oauth_state'),
    lastError: text('last_error'),
    discoveredTools: jsonb('discovered_tools').$type<TDiscoveredTool[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('integration_connections_subaccount_app_idx').on(table.subaccountId, table.appSlug),
    uniqueIndex('integration_connections_oauth_state_idx').on(table.oauthState),
  ],
);

/**
 * What the sandbox catalogue's tools write: calendar bookings, CRM contacts and outbox emails of a
 * sandbox connection. `slotKey` keeps one booking per calendar slot.
 */
export const sandboxAppRecords = pgTable(
  'sandbox_app_records',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id')
      .notNull()
      .references(() => integrationConnections.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['booking', 'contact', 'email'] }).notNull(),
    slotKey: text('slot_key'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sandbox_app_records_subaccount_idx').on(table.subaccountId, table.kind),
    uniqueIndex('sandbox_app_records_slot_idx').on(table.connectionId, table.slotKey),
  ],
);
