import type { TMarketplaceType, TPriceType, TProjectStatus } from '@switchboard/core';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, users } from '../tenancy/schema';

/** A marketplace project: an agency offer or a business request, visible to every signed-in user. */
export const marketplaceProjects = pgTable(
  'marketplace_projects',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    timeframe: text('timeframe').notNull(),
    priceValue: integer('price_value').notNull(),
    priceType: text('price_type').$type<TPriceType>().notNull(),
    image: text('image').notNull(),
    icon: text('icon').notNull(),
    category: text('category').notNull(),
    marketplaceType: text('marketplace_type').$type<TMarketplaceType>().notNull(),
    authorName: text('author_name').notNull(),
    companyName: text('company_name').notNull(),
    /** The author's address: answers to the project are mailed to it, it is never shown. */
    email: text('email').notNull(),
    status: text('status').$type<TProjectStatus>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('marketplace_projects_browse_idx').on(table.status, table.createdAt),
    index('marketplace_projects_user_idx').on(table.userId, table.createdAt),
  ],
);
export type ProjectRow = typeof marketplaceProjects.$inferSelect;

/**
 * Projects created per user per UTC day. One conditional upsert takes a place below the limit, in
 * the same transaction as the project insert, so two requests at once cannot both pass it.
 */
export const marketplaceDailyCounts = pgTable(
  'marketplace_daily_counts',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

/** Messages sent to a project's author through the app. */
export const marketplaceResponses = pgTable(
  'marketplace_responses',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => marketplaceProjects.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('marketplace_responses_project_idx').on(table.projectId, table.createdAt)],
);

/** The public profile a user shows on the marketplace (the wizard's contact step saves it). */
export const userProfiles = pgTable('user_profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  businessName: text('business_name').notNull(),
  image: text('image'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
