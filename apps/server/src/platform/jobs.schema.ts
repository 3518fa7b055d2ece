import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Background jobs (agent builder, question generation, evaluation runs); the database is the queue. */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    payload: jsonb('payload'),
    result: jsonb('result'),
    error: text('error'),
    accountId: text('account_id'),
    subaccountId: text('subaccount_id'),
    attempts: integer('attempts').notNull().default(0),
    /** Last sign of life of the worker running it; a stale running job is queued again. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('jobs_status_created_idx').on(table.status, table.createdAt)],
);
