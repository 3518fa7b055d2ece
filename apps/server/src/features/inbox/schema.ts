import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { threads } from '../conversations/schema';
import { subaccounts } from '../tenancy/schema';

/** A label of a sub-account's inbox; names are unique in the sub-account whatever their case. */
export const inboxLabels = pgTable(
  'inbox_labels',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('inbox_labels_name_idx').on(table.subaccountId, sql`lower(${table.name})`)],
);

/** A label on a thread. */
export const threadLabels = pgTable(
  'thread_labels',
  {
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    labelId: text('label_id')
      .notNull()
      .references(() => inboxLabels.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.threadId, table.labelId] }),
    index('thread_labels_label_idx').on(table.labelId),
  ],
);

/** A saved answer of a sub-account, inserted into the reply box. */
export const cannedReplies = pgTable(
  'canned_replies',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('canned_replies_title_idx').on(table.subaccountId, sql`lower(${table.title})`)],
);

/**
 * What the team wrote about a contact (the person behind a thread's contact identifier: a phone
 * number, an Instagram account, a widget visitor): a name and notes, shared by all their threads.
 */
export const contactProfiles = pgTable(
  'contact_profiles',
  {
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    contactIdentifier: text('contact_identifier').notNull(),
    name: text('name'),
    notes: text('notes').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.subaccountId, table.contactIdentifier] })],
);
