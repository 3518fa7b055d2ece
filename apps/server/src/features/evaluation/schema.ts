import type { TAdaptiveAttack, TTranscriptMessage } from '@switchboard/core';
import { boolean, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, subaccounts, users } from '../tenancy/schema';

/** Saved test settings of a sub-account (spec/evaluation.md section 3, Template). */
export const evaluationTemplates = pgTable(
  'evaluation_templates',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    data: jsonb('data').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('evaluation_templates_subaccount_idx').on(table.subaccountId, table.createdAt)],
);

/** One AI question generation request and, once the job finished, its results by category. */
export const questionGenerations = pgTable(
  'evaluation_question_generations',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'complete', 'failed'] })
      .notNull()
      .default('pending'),
    request: jsonb('request').notNull(),
    results: jsonb('results').$type<Record<string, { question: string; criteria: string; whenToAsk?: number }[]>>(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('evaluation_question_generations_subaccount_idx').on(table.subaccountId)],
);

/** An evaluation run: the start payload as sent, its target and its state. */
export const evaluationRuns = pgTable(
  'evaluation_runs',
  {
    id: text('id').primaryKey(),
    evaluationId: text('evaluation_id').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['chatcompletion', 'openai-assistants'] }).notNull(),
    agentId: text('agent_id'),
    targetLabel: text('target_label').notNull(),
    templateId: text('template_id'),
    testingModel: text('testing_model').notNull(),
    /** The offline model was picked by name for the testing model or plays the agent. */
    offline: boolean('offline').notNull().default(false),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    total: integer('total').notNull(),
    error: text('error'),
    errorReason: text('error_reason'),
    /** The secret of the run's share link (the branded report without signing in); null when not shared. */
    shareToken: text('share_token'),
    jobId: text('job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('evaluation_runs_subaccount_evaluation_idx').on(table.subaccountId, table.evaluationId),
    index('evaluation_runs_subaccount_created_idx').on(table.subaccountId, table.createdAt),
    index('evaluation_runs_agent_idx').on(table.agentId),
    uniqueIndex('evaluation_runs_share_token_idx').on(table.shareToken),
  ],
);

/** One finished conversation of a run; (run, question, variation) is unique so a resumed run never repeats one. */
export const evaluationConversations = pgTable(
  'evaluation_conversations',
  {
    id: text('id').primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => evaluationRuns.id, { onDelete: 'cascade' }),
    questionKey: text('question_key').notNull(),
    category: text('category', { enum: ['custom', 'compliance', 'promptHacking'] }).notNull(),
    position: integer('position').notNull(),
    variation: integer('variation').notNull(),
    question: text('question').notNull(),
    originalQuestion: text('original_question').notNull(),
    successCriteria: text('success_criteria').notNull(),
    whenToAsk: integer('when_to_ask').notNull(),
    transcript: jsonb('transcript').$type<TTranscriptMessage[]>().notNull(),
    answer: text('answer').notNull(),
    /** passed / failed (graded) or error (could not be evaluated; left out of the pass rate). */
    outcome: text('outcome', { enum: ['passed', 'failed', 'error'] })
      .notNull()
      .default('failed'),
    passed: boolean('passed').notNull(),
    score: real('score').notNull(),
    reasoning: text('reasoning').notNull(),
    error: text('error'),
    errorCode: text('error_code'),
    errorReason: text('error_reason'),
    /** Results of the checks beside the judge (contains, regex, latency, ...). */
    checks: jsonb('checks').$type<unknown[]>().notNull().default([]),
    /** How long the conversation took, from its first message to the verdict (null before this was kept). */
    durationMs: integer('duration_ms'),
    /** An adaptive attack's steps, judge scores, budget and stop reason; null for a question's conversation. */
    attack: jsonb('attack').$type<TAdaptiveAttack>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('evaluation_conversations_unique_idx').on(table.runId, table.questionKey, table.variation)],
);
