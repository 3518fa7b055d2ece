import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Outgoing email; without SMTP it stays here and the dev mailbox lists it. */
export const outbox = pgTable('outbox', {
  id: text('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  link: text('link'),
  /** The sender's display name when it is not MAIL_FROM's (an agency's mail to its client). */
  fromName: text('from_name'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
