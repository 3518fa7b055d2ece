import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

/**
 * The thread of a ticket after its first message (which stays on the ticket): the operator's
 * replies and the customer's answers. `client_id` is the id the sender's screen gives the message,
 * unique per ticket, so the same message posted twice is stored once.
 */
export const supportTicketMessages = pgTable(
  'support_ticket_messages',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    author: text('author', { enum: ['operator', 'customer'] }).notNull(),
    authorEmail: text('author_email').notNull(),
    body: text('body').notNull(),
    clientId: text('client_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('support_ticket_messages_client_idx').on(table.ticketId, table.clientId),
    index('support_ticket_messages_ticket_idx').on(table.ticketId, table.createdAt),
  ],
);
