import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { campaignRecipients, campaigns } from './schema';

/**
 * A campaign's sequence settings: present when the campaign has steps after its message. A reply
 * (stopOnReply) or the goal (stopOnGoal: a tracked link clicked, a conversion reported) takes a
 * recipient out; an opt-out always does.
 */
export const campaignSequences = pgTable('campaign_sequences', {
  campaignId: text('campaign_id')
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  stopOnReply: boolean('stop_on_reply').notNull().default(true),
  stopOnGoal: boolean('stop_on_goal').notNull().default(true),
});

/** A step after the campaign's message (step 2 onwards). */
export const campaignSteps = pgTable(
  'campaign_steps',
  {
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** 2 to 10: step 1 is the campaign's own message. */
    step: integer('step').notNull(),
    /** After the step before was sent to the recipient (or passed them by, its condition not met). */
    delayMinutes: integer('delay_minutes').notNull(),
    condition: text('condition', { enum: ['all', 'replied', 'not_replied'] })
      .notNull()
      .default('all'),
    message: text('message').notNull(),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.step] })],
);

/**
 * One recipient at one later step: written (queued, due at `dueAt`) once the step before is done
 * for them, then claimed, sent once and settled like a campaign recipient (claim, send key, sends
 * in doubt reconciled with the provider). Skipped with LEFT_REPLIED, LEFT_OPTED_OUT or LEFT_GOAL
 * when the recipient left the sequence before it, with CONDITION when the step's condition did not
 * pick them (the next step still follows).
 */
export const campaignStepSends = pgTable(
  'campaign_step_sends',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => campaignRecipients.id, { onDelete: 'cascade' }),
    contactId: text('contact_id').notNull(),
    phone: text('phone').notNull(),
    step: integer('step').notNull(),
    /** queued, sending, sent, delivered, failed, skipped, unconfirmed. */
    status: text('status').notNull().default('queued'),
    skipReason: text('skip_reason'),
    errorCode: text('error_code'),
    messageId: text('message_id'),
    attempts: integer('attempts').notNull().default(0),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sendKey: text('send_key'),
    /** When the step became due for this recipient: the delay counted from the step before. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('campaign_step_sends_recipient_idx').on(table.recipientId, table.step),
    index('campaign_step_sends_due_idx').on(table.campaignId, table.status, table.nextAttemptAt),
    index('campaign_step_sends_phone_idx').on(table.phone, table.sentAt),
  ],
);
