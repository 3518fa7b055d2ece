import type { MentorAgentFields, TMentorReviewInputs, TMentorSuggestion } from '@switchboard/core';
import { boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema';
import { accounts, subaccounts, users } from '../tenancy/schema';

/**
 * An AI Mentor review of one agent: what it read, the model that wrote it, and its suggestions
 * with their state. `baseline` holds the agent's editable fields as the review knows them (as read
 * when it was written, then as its own applied suggestions left them): a suggestion applies only
 * while its field still has that value.
 */
export const mentorReviews = pgTable(
  'mentor_reviews',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: ['offline', 'openai', 'openrouter', 'anthropic', 'compatible'] }).notNull(),
    model: text('model').notNull(),
    offline: boolean('offline').notNull(),
    summary: text('summary').notNull(),
    inputs: jsonb('inputs').$type<TMentorReviewInputs>().notNull(),
    suggestions: jsonb('suggestions').$type<TMentorSuggestion[]>().notNull(),
    baseline: jsonb('baseline').$type<MentorAgentFields>().notNull(),
    dropped: integer('dropped').notNull().default(0),
    credits: real('credits').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mentor_reviews_subaccount_agent_idx').on(table.subaccountId, table.agentId, table.createdAt)],
);

export type MentorReviewRow = typeof mentorReviews.$inferSelect;
