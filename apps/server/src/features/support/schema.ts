import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, users } from '../tenancy/schema';

export interface TicketContext {
  accountName: string;
  subaccountId: string;
  subaccountName: string;
  role: string;
  plan: string;
  page: string | null;
  userAgent: string | null;
}

/** A Support Center ticket with the account context it was sent from. */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    category: text('category', { enum: ['question', 'problem', 'billing', 'feature'] }).notNull(),
    status: text('status', { enum: ['open', 'answered', 'closed'] })
      .notNull()
      .default('open'),
    priority: text('priority', { enum: ['normal', 'priority'] })
      .notNull()
      .default('normal'),
    context: jsonb('context').$type<TicketContext>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('support_tickets_user_idx').on(table.userId, table.createdAt)],
);
