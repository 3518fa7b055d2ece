import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { arrayParam } from '../../db/bulk-insert';
import { type Db, rowsOf, type Tx } from '../../db/client';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { jobs } from '../jobs.schema';
import type { QueueName } from './queues';
import { DEFAULT_MAX_ATTEMPTS, jobKindOf } from './registry';

/**
 * The jobs table is the queue. Every write a worker makes to a job it runs names the claim's owner
 * token, so a worker whose claim was taken back (its heartbeat went stale and the job was queued
 * again) can no longer change the job: its heartbeat, result or retry is refused.
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobView {
  id: string;
  type: string;
  status: JobStatus;
  result: unknown;
  error: string | null;
  subaccountId: string | null;
  attempts: number;
  runAt: Date;
}

export interface EnqueueOptions {
  type: string;
  payload: unknown;
  /** The kind's queue and priority by default. */
  queue?: QueueName;
  priority?: number;
  accountId?: string | null;
  subaccountId?: string | null;
  /** Not before this time (a scheduled job). */
  runAt?: Date;
  /** Not before this many milliseconds from now (a delayed job). */
  delayMs?: number;
  maxAttempts?: number;
  /** At most one job per key: enqueuing it again answers the first job's id. */
  idempotencyKey?: string;
}

/** Wakes the local workers at once when a job is enqueued in this process. */
export const wakers = new Set<(queue: QueueName) => void>();

/** The row of a job to queue (its kind's queue, priority and attempts unless given). */
export const jobRowOf = (
  input: EnqueueOptions,
): typeof jobs.$inferInsert & { id: string; queue: QueueName; runAt: Date } => {
  const kind = jobKindOf(input.type);
  return {
    id: newId('job'),
    type: input.type,
    queue: input.queue ?? kind?.queue ?? 'maintenance',
    priority: input.priority ?? kind?.priority ?? 0,
    payload: input.payload ?? null,
    accountId: input.accountId ?? null,
    subaccountId: input.subaccountId ?? null,
    runAt: input.runAt ?? (input.delayMs ? new Date(Date.now() + input.delayMs) : new Date()),
    maxAttempts: input.maxAttempts ?? kind?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    idempotencyKey: input.idempotencyKey ?? null,
  };
};

/** How long after a job written in a transaction its workers are woken again, the transaction being committed by then. */
const AFTER_COMMIT_MS = 25;

/**
 * Wakes this process's workers of the queues of jobs just written, on the event loop's next turn;
 * for jobs written in a transaction, once more a moment later, when it has committed.
 */
export const wakeWorkersFor = (rows: readonly { queue: QueueName; runAt: Date }[], inTransaction = true) => {
  const due = new Set(rows.filter((row) => row.runAt.getTime() <= Date.now()).map((row) => row.queue));
  if (!due.size) return;
  const wake = () => {
    for (const queue of due) for (const waker of wakers) waker(queue);
  };
  setImmediate(wake);
  if (inTransaction) setTimeout(wake, AFTER_COMMIT_MS).unref?.();
};

/**
 * Queues a job and answers its id. Given a transaction, the job is queued only if it commits (a
 * state change and the job that acts on it are written together).
 */
export async function enqueueJob(deps: Deps, input: EnqueueOptions, tx?: Tx): Promise<string> {
  const db: Db | Tx = tx ?? deps.db;
  const values = jobRowOf(input);
  if (input.idempotencyKey) {
    const inserted = await db.insert(jobs).values(values).onConflictDoNothing().returning({ id: jobs.id });
    if (!inserted[0]) {
      const [existing] = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(eq(jobs.idempotencyKey, input.idempotencyKey))
        .limit(1);
      if (existing) return existing.id;
      throw new Error(`The job ${input.idempotencyKey} could not be queued`);
    }
  } else {
    await db.insert(jobs).values(values);
  }
  wakeWorkersFor([values], Boolean(tx));
  return values.id;
}

export async function getJob(deps: Deps, jobId: string): Promise<JobView | null> {
  const rows = await deps.db
    .select({
      id: jobs.id,
      type: jobs.type,
      status: jobs.status,
      result: jobs.result,
      error: jobs.error,
      subaccountId: jobs.subaccountId,
      attempts: jobs.attempts,
      runAt: jobs.runAt,
    })
    .from(jobs)
    .where(eq(jobs.id, jobId))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, result: row.result ?? null } : null;
}

export type ClaimedJob = {
  id: string;
  type: string;
  payload: unknown;
  account_id: string | null;
  subaccount_id: string | null;
  attempts: number;
  max_attempts: number;
  owner: string;
};

/**
 * Claims up to `count` due queued jobs of a queue (highest priority, then earliest) among the
 * types this process runs, each under a new owner token; one statement for a process's free slots.
 */
export const claimJobs = async (
  deps: Deps,
  queue: QueueName,
  types: string[],
  count: number,
): Promise<ClaimedJob[]> => {
  if (!types.length || count < 1) return [];
  const claim = randomBytes(12).toString('hex');
  const typeList = sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
  // ARRAY(subquery) is evaluated once, so the rows locked are exactly the rows updated.
  const result = await deps.db.execute(sql`
    UPDATE ${jobs} SET status = 'running', attempts = attempts + 1, owner = ${claim} || ':' || id,
      heartbeat_at = now(), updated_at = now()
    WHERE id = ANY(ARRAY(
      SELECT id FROM ${jobs}
      WHERE status = 'queued' AND queue = ${queue} AND run_at <= now() AND type IN (${typeList})
      ORDER BY priority DESC NULLS LAST, run_at, created_at
      FOR UPDATE SKIP LOCKED
      LIMIT ${count}
    ))
    RETURNING id, type, payload, account_id, subaccount_id, attempts, max_attempts, owner`);
  return rowsOf<ClaimedJob>(result);
};

/**
 * The queues among `queues` that have a due queued job: what a poll asks first, in one statement
 * for every queue (each answered by the queued-jobs index), so an idle process claims nothing.
 */
export const queuesWithDueJobs = async (deps: Deps, queues: QueueName[]): Promise<QueueName[]> => {
  if (!queues.length) return [];
  const result = await deps.db.execute(sql`
    SELECT q.queue FROM unnest(${arrayParam(queues, (queue) => queue)}::text[]) AS q(queue)
    WHERE EXISTS (SELECT 1 FROM ${jobs} WHERE status = 'queued' AND queue = q.queue AND run_at <= now())`);
  return rowsOf<{ queue: QueueName }>(result).map((row) => row.queue);
};

/** The claim still holds: the job runs under this owner token. */
const held = (job: Pick<ClaimedJob, 'id' | 'owner'>) =>
  and(eq(jobs.id, job.id), eq(jobs.owner, job.owner), eq(jobs.status, 'running'));

/** Beats the heartbeat; false when the claim was lost (the job was taken back). */
export const beatHeartbeat = async (deps: Deps, job: ClaimedJob): Promise<boolean> => {
  const rows = await deps.db.update(jobs).set({ heartbeatAt: new Date() }).where(held(job)).returning({ id: jobs.id });
  return rows.length > 0;
};

/** Records the end of a run; false (nothing written) when the claim was lost. */
export const finishJob = async (
  deps: Deps,
  job: ClaimedJob,
  outcome: { result?: unknown; error?: string },
): Promise<boolean> => {
  const now = new Date();
  const rows = await deps.db
    .update(jobs)
    .set({
      status: outcome.error === undefined ? 'succeeded' : 'failed',
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      owner: null,
      heartbeatAt: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(held(job))
    .returning({ id: jobs.id });
  return rows.length > 0;
};

/**
 * Queues the job again after `delayMs`: a retry (the attempt counts), or a job handed back at a
 * step boundary (it does not). False when the claim was lost.
 */
export const requeueJob = async (
  deps: Deps,
  job: ClaimedJob,
  options: { delayMs: number; error?: string; countsAsAttempt: boolean },
): Promise<boolean> => {
  const rows = await deps.db
    .update(jobs)
    .set({
      status: 'queued',
      error: options.error ?? null,
      owner: null,
      heartbeatAt: null,
      runAt: new Date(Date.now() + options.delayMs),
      updatedAt: new Date(),
      ...(options.countsAsAttempt ? {} : { attempts: sql`greatest(${jobs.attempts} - 1, 0)` }),
    })
    .where(held(job))
    .returning({ id: jobs.id });
  return rows.length > 0;
};

/** Queues again the running jobs whose worker stopped beating (a crash, a stall, a restart). */
export const requeueStale = async (deps: Deps, staleBefore: Date) => {
  const now = new Date();
  await deps.db
    .update(jobs)
    .set({
      status: 'failed',
      error: 'The job stopped too many times',
      owner: null,
      heartbeatAt: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(
      and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore), sql`${jobs.attempts} >= ${jobs.maxAttempts}`),
    );
  await deps.db
    .update(jobs)
    .set({ status: 'queued', owner: null, heartbeatAt: null, runAt: now, updatedAt: now })
    .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore)));
};

/** Hands back, uncounted, the jobs this process still runs when it stops, for another to take at once. */
export const releaseClaims = async (deps: Deps, claims: ClaimedJob[]) => {
  if (!claims.length) return;
  await deps.db
    .update(jobs)
    .set({
      status: 'queued',
      owner: null,
      heartbeatAt: null,
      runAt: new Date(),
      updatedAt: new Date(),
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
    })
    .where(
      and(
        inArray(
          jobs.id,
          claims.map((claim) => claim.id),
        ),
        eq(jobs.status, 'running'),
        inArray(
          jobs.owner,
          claims.map((claim) => claim.owner),
        ),
      ),
    );
};

/** Deletes finished jobs older than the retention (their own tables keep what the product shows). */
export const pruneFinishedJobs = async (deps: Deps, retentionHours = deps.env.JOB_RETENTION_HOURS) => {
  const before = new Date(Date.now() - retentionHours * 3_600_000);
  await deps.db.delete(jobs).where(lt(jobs.finishedAt, before));
};
