import { and, eq, lt, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../db/client';
import type { Deps } from './deps';
import { newId } from './ids';
import { jobs } from './jobs.schema';

/**
 * The job runner. Job state lives in the `jobs` table, so the table is the queue: workers claim a
 * queued job whose `run_at` has come with `FOR UPDATE SKIP LOCKED` (safe with several app
 * processes on one PostgreSQL), beat a heartbeat while it runs, and a job whose heartbeat went
 * stale (its process died) is queued again on the next sweep. A handler that must resume part-way
 * keeps its progress in its own tables and is written to be safely re-run.
 *
 * - Delayed and scheduled jobs: `runAt` / `delayMs` at enqueue.
 * - Retries: a handler throws `RetryableJobError` for a temporary failure; the job runs again after
 *   an exponential backoff (or the `retryAfterMs` the failure carries, when longer) until it has
 *   used `maxAttempts`. Any other error is permanent: the job fails at once.
 * - Idempotency keys: enqueuing a key that is already in the table answers the existing job.
 * - Retention: finished jobs are deleted JOB_RETENTION_HOURS after they finished.
 */

export interface JobContext {
  id: string;
  payload: unknown;
  accountId: string | null;
  subaccountId: string | null;
  /** 1 on the first run, 2 on the first retry or restart, and so on. */
  attempt: number;
  maxAttempts: number;
}
export type JobHandler = (deps: Deps, job: JobContext) => Promise<unknown>;
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

/** A temporary failure: the job is tried again later (after `retryAfterMs` at least, when given). */
export class RetryableJobError extends Error {
  readonly retryAfterMs: number | null;
  constructor(message: string, options: { retryAfterMs?: number | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'RetryableJobError';
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;
const DEFAULT_MAX_ATTEMPTS = 3;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 15 * 60_000;

/**
 * The wait before retry `attempt` (1 = the first retry): 1 s, 2 s, 4 s ... up to 15 minutes, with
 * up to 20 % of jitter so failures of many jobs do not come back together; never shorter than a
 * Retry-After the failure carried.
 */
export const backoffDelayMs = (
  attempt: number,
  options: { retryAfterMs?: number | null; baseMs?: number; maxMs?: number; random?: () => number } = {},
): number => {
  const base = options.baseMs ?? BACKOFF_BASE_MS;
  const max = options.maxMs ?? BACKOFF_MAX_MS;
  const exponential = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exponential * (1 + 0.2 * (options.random ?? Math.random)()));
  return Math.max(Math.min(jittered, max), options.retryAfterMs ?? 0);
};

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now, or null. */
export const parseRetryAfter = (value: string | null | undefined, now = Date.now()): number | null => {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};

const handlers = new Map<string, JobHandler>();
/** Wakes the local workers at once when a job is enqueued in this process. */
const wakers = new Set<() => void>();

export function registerJobHandler(type: string, handler: JobHandler): void {
  handlers.set(type, handler);
}

export interface EnqueueInput {
  type: string;
  payload: unknown;
  accountId?: string | null;
  subaccountId?: string | null;
  /** Not before this time (a scheduled job). */
  runAt?: Date;
  /** Not before this many milliseconds from now (a delayed job). */
  delayMs?: number;
  maxAttempts?: number;
  /** At most one job per key; enqueuing it again answers the first job's id. */
  idempotencyKey?: string;
}

/**
 * Queues a job and answers its id. Given a transaction, the job is queued only if it commits (a
 * state change and the job that acts on it are written together).
 */
export async function enqueueJob(deps: Deps, input: EnqueueInput, tx?: Tx): Promise<string> {
  const db: Db | Tx = tx ?? deps.db;
  const id = newId('job');
  const runAt = input.runAt ?? (input.delayMs ? new Date(Date.now() + input.delayMs) : new Date());
  const values = {
    id,
    type: input.type,
    payload: input.payload ?? null,
    accountId: input.accountId ?? null,
    subaccountId: input.subaccountId ?? null,
    runAt,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
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
      for (const wake of wakers) wake();
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

type ClaimedJob = {
  id: string;
  type: string;
  payload: unknown;
  account_id: string | null;
  subaccount_id: string | null;
  attempts: number;
  max_attempts: number;
};

/** Claims the due queued job (earliest first) of a type this process can run, or null. */
const claimJob = async (deps: Deps): Promise<ClaimedJob | null> => {
  const types = [...handlers.keys()];
  if (!types.length) return null;
  const typeList = sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
  const result = await deps.db.execute(sql`
    UPDATE ${jobs} SET status = 'running', attempts = attempts + 1, heartbeat_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM ${jobs}
      WHERE status = 'queued' AND run_at <= now() AND type IN (${typeList})
      ORDER BY run_at, created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, type, payload, account_id, subaccount_id, attempts, max_attempts`);
  const rows = rowsOf<ClaimedJob>(result);
  return rows[0] ?? null;
};

const finishJob = async (deps: Deps, id: string, outcome: { result?: unknown; error?: string }) => {
  const now = new Date();
  await deps.db
    .update(jobs)
    .set({
      status: outcome.error === undefined ? 'succeeded' : 'failed',
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      heartbeatAt: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(eq(jobs.id, id));
};

const retryLater = async (deps: Deps, id: string, error: string, delayMs: number) => {
  await deps.db
    .update(jobs)
    .set({
      status: 'queued',
      error,
      heartbeatAt: null,
      runAt: new Date(Date.now() + delayMs),
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, id));
};

/** Queues again the running jobs whose worker stopped beating (a crash or a restart). */
const requeueStale = async (deps: Deps, staleBefore: Date) => {
  const now = new Date();
  await deps.db
    .update(jobs)
    .set({
      status: 'failed',
      error: 'The job stopped too many times',
      heartbeatAt: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(
      and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore), sql`${jobs.attempts} >= ${jobs.maxAttempts}`),
    );
  await deps.db
    .update(jobs)
    .set({ status: 'queued', heartbeatAt: null, runAt: now, updatedAt: now })
    .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore)));
};

/** Deletes finished jobs older than the retention (their own tables keep what the product shows). */
export const pruneFinishedJobs = async (deps: Deps, retentionHours = deps.env.JOB_RETENTION_HOURS) => {
  const before = new Date(Date.now() - retentionHours * 3_600_000);
  await deps.db.delete(jobs).where(lt(jobs.finishedAt, before));
};

const errorText = (error: unknown): string => {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'The job failed';
};

const runClaimed = async (deps: Deps, job: ClaimedJob, running: Set<string>) => {
  const handler = handlers.get(job.type);
  running.add(job.id);
  const beat = setInterval(() => {
    void deps.db
      .update(jobs)
      .set({ heartbeatAt: new Date() })
      .where(eq(jobs.id, job.id))
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    if (!handler) throw new Error(`No handler for job type ${job.type}`);
    const result = await handler(deps, {
      id: job.id,
      payload: job.payload,
      accountId: job.account_id,
      subaccountId: job.subaccount_id,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
    });
    await finishJob(deps, job.id, { result });
  } catch (error) {
    const retry = error instanceof RetryableJobError && job.attempts < job.max_attempts;
    deps.log.warn({ err: error, jobId: job.id, type: job.type, attempt: job.attempts, retry }, 'job failed');
    const record = retry
      ? retryLater(
          deps,
          job.id,
          errorText(error),
          backoffDelayMs(job.attempts, { retryAfterMs: (error as RetryableJobError).retryAfterMs }),
        )
      : finishJob(deps, job.id, { error: errorText(error) });
    await record.catch((err) => deps.log.error({ err, jobId: job.id }, 'could not record the job failure'));
  } finally {
    clearInterval(beat);
    running.delete(job.id);
  }
};

/**
 * Starts the in-process workers (JOB_CONCURRENCY of them). Running jobs of a process that stopped
 * are resumed: at start every running job without a fresh heartbeat is queued again.
 * Returns a stop function that waits for the jobs in flight.
 */
export function startJobWorkers(deps: Deps): () => Promise<void> {
  let stopped = false;
  const running = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let pumping = false;
  let again = false;

  const pump = async () => {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && inFlight.size < deps.env.JOB_CONCURRENCY) {
          const job = await claimJob(deps);
          if (!job) break;
          const work = runClaimed(deps, job, running).finally(() => {
            inFlight.delete(work);
            void pump();
          });
          inFlight.add(work);
        }
      } while (again && !stopped);
    } catch (error) {
      if (!stopped) deps.log.warn({ err: error }, 'job worker could not claim a job');
    } finally {
      pumping = false;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      await pump();
      schedule();
    }, deps.env.JOB_POLL_MS);
    timer.unref?.();
  };

  const wake = () => void pump();
  wakers.add(wake);

  const sweep = setInterval(() => {
    void requeueStale(deps, new Date(Date.now() - STALE_MS)).catch(() => undefined);
    void pruneFinishedJobs(deps).catch(() => undefined);
  }, STALE_MS / 2);
  sweep.unref?.();

  void (async () => {
    // At start no job of this process is running, so running jobs with no fresh heartbeat belong
    // to a stopped process; jobs whose heartbeat is older than a beat are taken back at once.
    await requeueStale(deps, new Date(Date.now() - HEARTBEAT_MS * 2)).catch(() => undefined);
    await pump();
    schedule();
  })();

  return async () => {
    stopped = true;
    wakers.delete(wake);
    if (timer) clearTimeout(timer);
    clearInterval(sweep);
    await Promise.allSettled([...inFlight]);
  };
}

/** Test helper: waits until a job is finished (or the time is up) and returns it. */
export async function waitForJob(deps: Deps, jobId: string, timeoutMs = 10_000): Promise<JobView | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(deps, jobId);
    if (!job || job.status === 'succeeded' || job.status === 'failed' || Date.now() > until) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
