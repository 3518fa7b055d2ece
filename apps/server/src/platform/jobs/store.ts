import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
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

/**
 * Queues a job and answers its id. Given a transaction, the job is queued only if it commits (a
 * state change and the job that acts on it are written together).
 */
export async function enqueueJob(deps: Deps, input: EnqueueOptions, tx?: Tx): Promise<string> {
  const db: Db | Tx = tx ?? deps.db;
  const kind = jobKindOf(input.type);
  const queue = input.queue ?? kind?.queue ?? 'maintenance';
  const id = newId('job');
  const runAt = input.runAt ?? (input.delayMs ? new Date(Date.now() + input.delayMs) : new Date());
  const values = {
    id,
    type: input.type,
    queue,
    priority: input.priority ?? kind?.priority ?? 0,
    payload: input.payload ?? null,
    accountId: input.accountId ?? null,
    subaccountId: input.subaccountId ?? null,
    runAt,
    maxAttempts: input.maxAttempts ?? kind?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    idempotencyKey: input.idempotencyKey ?? null,
  };
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
  if (runAt.getTime() <= Date.now()) {
    // Woken after the transaction had a chance to commit.
    setImmediate(() => {
      for (const wake of wakers) wake(queue);
    });
  }
  return id;
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
 * Claims the due queued job of a queue (highest priority, then earliest) among the types this
 * process runs, under a new owner token; null when there is none.
 */
export const claimJob = async (deps: Deps, queue: QueueName, types: string[]): Promise<ClaimedJob | null> => {
  if (!types.length) return null;
  const owner = randomBytes(12).toString('hex');
  const typeList = sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
  const result = await deps.db.execute(sql`
    UPDATE ${jobs} SET status = 'running', attempts = attempts + 1, owner = ${owner},
      heartbeat_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM ${jobs}
      WHERE status = 'queued' AND queue = ${queue} AND run_at <= now() AND type IN (${typeList})
      ORDER BY priority DESC, run_at, created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, type, payload, account_id, subaccount_id, attempts, max_attempts, owner`);
  return rowsOf<ClaimedJob>(result)[0] ?? null;
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
