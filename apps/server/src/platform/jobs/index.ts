/**
 * The job engine: the `jobs` table is the queue, shared by every process.
 *
 * - Kinds (`defineJob`): a type, its queue and priority, its payload's zod schema and its handler,
 *   all listed in one registry (apps/server/src/jobs.ts).
 * - Queues (`queues.ts`): each with workers of its own, so a long job never delays a reply.
 * - Claims: `FOR UPDATE SKIP LOCKED`, with an owner token that every later write must name; a
 *   heartbeat every 5 s, and a job whose heartbeat goes stale for 30 s is queued again.
 * - Abort signals: a handler's signal is aborted when the process stops or the claim was lost; a
 *   long job works in bounded steps and returns `continueLater()` to hand the rest back.
 * - Retries: `RetryableJobError` for a temporary failure (exponential backoff, never under a
 *   Retry-After); any other error fails the job at once. Idempotency keys: one job per key.
 * - Recurring tasks (`recurring.ts`): once per period across all processes.
 */
export * from './backoff';
export * from './define';
export * from './queues';
export * from './recurring';
export * from './registry';
export {
  type EnqueueOptions,
  enqueueJob,
  getJob,
  type JobStatus,
  type JobView,
  jobRowOf,
  pruneFinishedJobs,
  requeueStale,
  wakeWorkersFor,
} from './store';
export { waitForJob } from './wait';
export { HEARTBEAT_MS, JobStopped, STALE_MS, startJobWorkers } from './workers';

import { type RecurringTask, registerRecurring } from './recurring';
import { pruneFinishedJobs, requeueStale } from './store';
import { STALE_MS } from './workers';

/** The engine's own upkeep, run once per period across all processes. */
export const JOB_UPKEEP: readonly RecurringTask[] = [
  {
    name: 'jobs:requeue-stale',
    everyMs: STALE_MS / 2,
    run: (deps) => requeueStale(deps, new Date(Date.now() - STALE_MS)),
  },
  { name: 'jobs:prune-finished', everyMs: 3_600_000, run: (deps) => pruneFinishedJobs(deps) },
];

registerRecurring(JOB_UPKEEP);
