import { and, eq, lt, sql } from 'drizzle-orm';
import type { Deps } from './deps';
import { newId } from './ids';
import { jobs } from './jobs.schema';

/**
 * The job runner. Job state lives in the `jobs` table, so the table is the queue: workers claim a
 * queued job with `FOR UPDATE SKIP LOCKED` (safe with several app processes on one PostgreSQL),
 * beat a heartbeat while it runs, and a job whose heartbeat went stale (its process died) is queued
 * again on the next sweep. A handler that must resume part-way keeps its progress in its own tables
 * and is written to be safely re-run.
 */

export interface JobContext {
  id: string;
  payload: unknown;
  accountId: string | null;
  subaccountId: string | null;
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
}

const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;
const MAX_ATTEMPTS = 3;

const handlers = new Map<string, JobHandler>();
/** Wakes the local workers at once when a job is enqueued in this process. */
const wakers = new Set<() => void>();

export function registerJobHandler(type: string, handler: JobHandler): void {
  handlers.set(type, handler);
}

export async function enqueueJob(
  deps: Deps,
  input: { type: string; payload: unknown; accountId?: string | null; subaccountId?: string | null },
): Promise<string> {
  const id = newId('job');
  await deps.db.insert(jobs).values({
    id,
    type: input.type,
    payload: input.payload ?? null,
    accountId: input.accountId ?? null,
    subaccountId: input.subaccountId ?? null,
  });
  for (const wake of wakers) wake();
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
};

/** Claims the oldest queued job of a type this process can run, or null. */
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
      WHERE status = 'queued' AND type IN (${typeList})
      ORDER BY created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, type, payload, account_id, subaccount_id, attempts`);
  const rows = (result as unknown as { rows: ClaimedJob[] }).rows;
  return rows[0] ?? null;
};

const finishJob = async (deps: Deps, id: string, outcome: { result?: unknown; error?: string }) => {
  await deps.db
    .update(jobs)
    .set({
      status: outcome.error === undefined ? 'succeeded' : 'failed',
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      heartbeatAt: null,
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, id));
};

/** Queues again the running jobs whose worker stopped beating (a crash or a restart). */
const requeueStale = async (deps: Deps) => {
  const staleBefore = new Date(Date.now() - STALE_MS);
  await deps.db
    .update(jobs)
    .set({ status: 'failed', error: 'The job stopped too many times', heartbeatAt: null, updatedAt: new Date() })
    .where(
      and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore), sql`${jobs.attempts} >= ${MAX_ATTEMPTS}`),
    );
  await deps.db
    .update(jobs)
    .set({ status: 'queued', heartbeatAt: null, updatedAt: new Date() })
    .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore)));
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
    });
    await finishJob(deps, job.id, { result });
  } catch (error) {
    deps.log.warn({ err: error, jobId: job.id, type: job.type }, 'job failed');
    await finishJob(deps, job.id, { error: errorText(error) }).catch((err) =>
      deps.log.error({ err, jobId: job.id }, 'could not record the job failure'),
    );
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
    void requeueStale(deps).catch(() => undefined);
  }, STALE_MS / 2);
  sweep.unref?.();

  void (async () => {
    // At start no job of this process is running, so running jobs with no fresh heartbeat belong
    // to a stopped process; jobs whose heartbeat is older than a beat are taken back at once.
    const before = new Date(Date.now() - HEARTBEAT_MS * 2);
    await deps.db
      .update(jobs)
      .set({ status: 'queued', heartbeatAt: null, updatedAt: new Date() })
      .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, before)))
      .catch(() => undefined);
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
