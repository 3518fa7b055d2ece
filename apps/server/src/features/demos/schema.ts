import type { TDemoSettings, TDemoType } from '@switchboard/core';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema';
import { accounts, subaccounts, users } from '../tenancy/schema';

/** A demo: an agent (build) presented to a client behind a public share link with a request limit. */
export const demos = pgTable(
  'demos',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    /** The agent the demo answers with; null once that agent was deleted ("missing configuration"). */
    buildId: text('build_id').references(() => agents.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    type: text('type').$type<TDemoType>().notNull(),
    logoUrl: text('logo_url').notNull().default(''),
    avatarUrl: text('avatar_url').notNull().default(''),
    logoWidth: integer('logo_width').notNull().default(100),
    requestCount: integer('request_count').notNull().default(0),
    requestLimit: integer('request_limit').notNull().default(100),
    settings: jsonb('settings').$type<TDemoSettings>().notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('demos_subaccount_idx').on(table.subaccountId, table.createdAt)],
);
export type DemoRow = typeof demos.$inferSelect;
