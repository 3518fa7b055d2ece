import type { Deps } from '../deps';
import { backoffDelayMs, RetryableJobError } from './backoff';
import { concurrencyOf, QUEUE_NAMES, type QueueName } from './queues';
import { startRecurring } from './recurring';
import { ContinueLater, jobKindOf, typesIn } from './registry';
import {
  beatHeartbeat,
  type ClaimedJob,
  claimJobs,
  finishJob,
  queuesWithDueJobs,
  releaseClaims,
  requeueJob,
  requeueStale,
  wakers,
} from './store';

export const HEARTBEAT_MS = 5_000;
export const STALE_MS = 30_000;

/** Why a running job's signal was aborted. */
export class JobStopped extends Error {
  constructor(readonly why: 'shutdown' | 'claim-lost') {
    super(why === 'shutdown' ? 'The process is stopping' : 'The job was taken back by another worker');
    this.name = 'JobStopped';
  }
}

const errorText = (error: unknown): string => {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'The job failed';
};

interface Running {
  claim: ClaimedJob;
  abort: AbortController;
  done: Promise<void>;
}

/** Runs one claimed job to its end, and records the end under the claim's owner token. */
const runClaimed = async (deps: Deps, claim: ClaimedJob, abort: AbortController) => {
  const kind = jobKindOf(claim.type);
  const beat = setInterval(() => {
    void beatHeartbeat(deps, claim)
      .then((holds) => {
        if (!holds && !abort.signal.aborted) abort.abort(new JobStopped('claim-lost'));
      })
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  const record = async (write: Promise<boolean>) => {
    if (!(await write))
      deps.log.warn({ jobId: claim.id, type: claim.type }, 'a stale worker’s write to a job was refused');
  };
  try {
    if (!kind) throw new Error(`No handler for job type ${claim.type}`);
    const result = await kind.run(deps, {
      id: claim.id,
      payload: claim.payload,
      accountId: claim.account_id,
      subaccountId: claim.subaccount_id,
      attempt: claim.attempts,
      maxAttempts: claim.max_attempts,
      signal: abort.signal,
    });
    if (result instanceof ContinueLater) {
      await record(requeueJob(deps, claim, { delayMs: result.delayMs, countsAsAttempt: false }));
    } else {
      await record(finishJob(deps, claim, { result }));
    }
  } catch (error) {
    const stoppedBy = abort.signal.reason instanceof JobStopped ? abort.signal.reason.why : null;
    if (stoppedBy === 'shutdown') {
      // Interrupted at a step by this process stopping: another process goes on with it at once.
      await record(requeueJob(deps, claim, { delayMs: 0, countsAsAttempt: false }));
      return;
    }
    if (stoppedBy === 'claim-lost') return;
    const retry = error instanceof RetryableJobError && claim.attempts < claim.max_attempts;
    deps.log.warn({ err: error, jobId: claim.id, type: claim.type, attempt: claim.attempts, retry }, 'job failed');
    const write = retry
      ? requeueJob(deps, claim, {
          delayMs: backoffDelayMs(claim.attempts, { retryAfterMs: (error as RetryableJobError).retryAfterMs }),
          error: errorText(error),
          countsAsAttempt: true,
        })
      : finishJob(deps, claim, { error: errorText(error) });
    await record(write).catch((err) => deps.log.error({ err, jobId: claim.id }, 'could not record the job failure'));
  } finally {
    clearInterval(beat);
  }
};

/** The workers of one queue: at most its concurrency of jobs at once, woken on enqueue and polled. */
const queueWorkers = (deps: Deps, queue: QueueName, running: Map<string, Running>, isStopped: () => boolean) => {
  let pumping = false;
  let again = false;
  const inQueue = new Set<string>();
  const limit = concurrencyOf(deps.env, queue);

  const pump = async (): Promise<void> => {
    if (isStopped()) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!isStopped() && inQueue.size < limit) {
          const claims = await claimJobs(deps, queue, typesIn(queue), limit - inQueue.size);
          if (!claims.length) break;
          if (isStopped()) {
            await releaseClaims(deps, claims);
            break;
          }
          for (const claim of claims) {
            const abort = new AbortController();
            inQueue.add(claim.id);
            const done = runClaimed(deps, claim, abort).finally(() => {
              inQueue.delete(claim.id);
              running.delete(claim.id);
              void pump();
            });
            running.set(claim.id, { claim, abort, done });
          }
        }
      } while (again && !isStopped());
    } catch (error) {
      if (!isStopped()) deps.log.warn({ err: error, queue }, 'job worker could not claim a job');
    } finally {
      pumping = false;
    }
  };
  return pump;
};

export interface JobWorkers {
  /**
   * Stops claiming, aborts the running jobs (each stops at its next step and is handed back), and
   * waits for them up to `graceMs`; jobs still running then are handed back to the queue for
   * another process, and their later writes are refused.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the workers of every queue. Running jobs of a process that stopped are resumed: at start
 * every running job without a fresh heartbeat is queued again. Returns the stop function.
 */
export function startJobWorkers(deps: Deps): JobWorkers['stop'] {
  let stopped = false;
  const isStopped = () => stopped;
  const running = new Map<string, Running>();
  const pumps = new Map(QUEUE_NAMES.map((queue) => [queue, queueWorkers(deps, queue, running, isStopped)]));
  const pumpAll = () => Promise.all([...pumps.values()].map((pump) => pump()));
  // A poll first asks which queues have due jobs, in one statement, and claims only in those: an
  // enqueue in this process wakes its queue at once, so a poll finds work only for jobs that came
  // due (a retry, a delayed job) or were enqueued by another process.
  const poll = async () => {
    try {
      const polled = QUEUE_NAMES.filter((queue) => typesIn(queue).length > 0);
      const due = await queuesWithDueJobs(deps, polled);
      await Promise.all(due.map((queue) => pumps.get(queue)?.()));
    } catch (error) {
      if (!stopped) deps.log.warn({ err: error }, 'job workers could not poll the queues');
    }
  };

  let timer: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      await poll();
      schedule();
    }, deps.env.JOB_POLL_MS);
    timer.unref?.();
  };
  const wake = (queue: QueueName) => void pumps.get(queue)?.();
  wakers.add(wake);

  // Between recurring sweeps (platform/jobs/recurring.ts), a start takes back what a stopped
  // process left: at start no job of this process runs, so a running job with no heartbeat for
  // two beats belongs to a process that is gone.
  void (async () => {
    await requeueStale(deps, new Date(Date.now() - HEARTBEAT_MS * 2)).catch(() => undefined);
    await pumpAll();
    schedule();
  })();
  const stopRecurring = startRecurring(deps);

  return async (graceMs = deps.env.SHUTDOWN_TIMEOUT_MS / 2) => {
    stopped = true;
    wakers.delete(wake);
    if (timer) clearTimeout(timer);
    const recurringStopped = stopRecurring();
    const jobsNow = [...running.values()];
    for (const job of jobsNow) job.abort.abort(new JobStopped('shutdown'));
    let graceTimer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled(jobsNow.map((job) => job.done)), grace]);
    clearTimeout(graceTimer);
    const left = [...running.values()].map((job) => job.claim);
    if (left.length) {
      deps.log.warn({ jobs: left.map((claim) => claim.id) }, 'jobs still running at shutdown were handed back');
      await releaseClaims(deps, left).catch((err) => deps.log.error({ err }, 'could not hand back running jobs'));
    }
    await recurringStopped;
  };
}
