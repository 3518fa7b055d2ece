import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Background jobs (agent builder, question generation, evaluation runs, campaign dispatch, channel
 * sends); the database is the queue. A job runs at or after `run_at`; a retried job moves its
 * `run_at` forward.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The queue whose workers run it (platform/jobs/queues.ts); higher `priority` runs first in it. */
    queue: text('queue').notNull().default('maintenance'),
    priority: integer('priority').notNull().default(0),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    payload: jsonb('payload'),
    result: jsonb('result'),
    error: text('error'),
    accountId: text('account_id'),
    subaccountId: text('subaccount_id'),
    attempts: integer('attempts').notNull().default(0),
    /** Runs (handler errors that ask for a retry, and restarts after a crash) before it fails for good. */
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** Not run before this time: scheduled jobs, delayed jobs and the backoff of a retry. */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** One job per key: enqueuing the same key again answers the existing job. */
    idempotencyKey: text('idempotency_key'),
    /** Last sign of life of the worker running it; a stale running job is queued again. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** The token of the claim running it: heartbeats, results and retries must name it. */
    owner: text('owner'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('jobs_status_created_idx').on(table.status, table.createdAt),
    index('jobs_queued_run_at_idx').on(table.runAt).where(sql`${table.status} = 'queued'`),
    index('jobs_queued_queue_idx')
      .on(table.queue, table.priority.desc(), table.runAt)
      .where(sql`${table.status} = 'queued'`),
    uniqueIndex('jobs_idempotency_key_idx').on(table.idempotencyKey),
    index('jobs_finished_idx').on(table.finishedAt).where(sql`${table.finishedAt} IS NOT NULL`),
  ],
);

/** Recurring tasks: the last period each ran for (platform/jobs/recurring.ts). */
export const recurringTasks = pgTable('recurring_tasks', {
  name: text('name').primaryKey(),
  period: bigint('period', { mode: 'number' }).notNull(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
});
