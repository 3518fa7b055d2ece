import type { WidgetSettings } from '@switchboard/core';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { subaccounts, users } from '../tenancy/schema';

/**
 * A channel connection of a sub-account: a website widget, a website block, an SMS or a WhatsApp
 * agent, or an Instagram agent (whose transport lives in channel_accounts). `settings` is a widget's saved design; `deployedSettings` is what live embeds use, copied from `settings` by Deploy.
 */
export const connections = pgTable(
  'connections',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    type: text('type', { enum: ['website-widget', 'website-block', 'sms', 'whatsapp', 'instagram'] }).notNull(),
    name: text('name').notNull(),
    widgetId: text('widget_id').notNull(),
    buildId: text('build_id'),
    settings: jsonb('settings').$type<WidgetSettings>().notNull(),
    deployedSettings: jsonb('deployed_settings').$type<WidgetSettings>(),
    deployedBuildId: text('deployed_build_id'),
    settingsVersion: integer('settings_version').notNull().default(1),
    deployedVersion: integer('deployed_version').notNull().default(0),
    deployedAt: timestamp('deployed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('connections_widget_idx').on(table.widgetId),
    index('connections_subaccount_idx').on(table.subaccountId, table.type),
  ],
);

/** Per-widget daily message counters and per-visitor burst counters (database mode; Redis replaces them at scale). */
export const widgetCounters = pgTable(
  'widget_counters',
  {
    key: text('key').notNull(),
    window: text('window').notNull(),
    count: integer('count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.window] }),
    index('widget_counters_expires_idx').on(table.expiresAt),
  ],
);

/**
 * Channel connections an agency paused from Launch: while a row exists every public way into the
 * connection (widget, website block, SMS, WhatsApp and Instagram messages) answers
 * CONNECTION_INACTIVE and nothing is sent from it (campaigns wait, queued answers are not sent).
 * Resuming deletes the row.
 */
export const connectionPauses = pgTable(
  'connection_pauses',
  {
    connectionId: text('connection_id')
      .primaryKey()
      .references(() => connections.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    pausedBy: text('paused_by').references(() => users.id, { onDelete: 'set null' }),
    pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('connection_pauses_subaccount_idx').on(table.subaccountId)],
);
