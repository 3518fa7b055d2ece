import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { subaccounts } from '../tenancy/schema';

export type MessageSource = { documentId: string; name: string; excerpt: string };
/** A tool the agent called for a reply; `notCalled` when a test recorded the call without making it. */
export type MessageToolCall = { name: string; input: unknown; output: unknown; notCalled?: boolean };

/** A conversation with an agent on one channel. */
export const threads = pgTable(
  'threads',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    channel: text('channel', {
      enum: ['test', 'widget', 'website-block', 'demo', 'api', 'evaluation', 'sms', 'whatsapp', 'instagram'],
    }).notNull(),
    channelRef: text('channel_ref'),
    contactIdentifier: text('contact_identifier'),
    handledByUserId: text('handled_by_user_id'),
    /** The person of the sub-account the thread is given to in the inbox (not the same as taking it over). */
    assignedUserId: text('assigned_user_id'),
    lastMessage: text('last_message').notNull().default(''),
    messageCount: integer('message_count').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('threads_subaccount_last_idx').on(table.subaccountId, table.lastMessageAt),
    index('threads_channel_ref_idx').on(table.subaccountId, table.channel, table.channelRef),
    index('threads_contact_idx').on(table.subaccountId, table.contactIdentifier),
    // A contact's latest thread on a channel connection (inbound messages, campaign messages).
    index('threads_channel_contact_idx').on(table.channelRef, table.contactIdentifier, table.lastMessageAt),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    role: text('role', { enum: ['user', 'assistant', 'human'] }).notNull(),
    content: text('content').notNull(),
    sources: jsonb('sources').$type<MessageSource[]>().notNull().default([]),
    toolCalls: jsonb('tool_calls').$type<MessageToolCall[]>().notNull().default([]),
    model: text('model'),
    offline: boolean('offline').notNull().default(false),
    userId: text('user_id'),
    /** Who sent an outgoing message when not the thread's agent or a person: `campaign` (a bulk send). */
    source: text('source', { enum: ['campaign'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('messages_thread_idx').on(table.threadId, table.createdAt),
    // A sub-account's messages over a period (the connection dashboard's figures).
    index('messages_subaccount_created_idx').on(table.subaccountId, table.createdAt),
  ],
);

/**
 * Who a thread's contact is, as its channel reports it (Instagram: the user profile behind an
 * Instagram-scoped id), cached once per contact of a connection. `readAt` null with `attemptedAt`
 * set: the profile could not be read (the id is shown instead; tried again after a day).
 */
export const senderProfiles = pgTable(
  'sender_profiles',
  {
    channelRef: text('channel_ref').notNull(),
    contactIdentifier: text('contact_identifier').notNull(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    username: text('username'),
    name: text('name'),
    readAt: timestamp('read_at', { withTimezone: true }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.channelRef, table.contactIdentifier] })],
);
