import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../deps';
import { recurringTasks } from '../jobs.schema';

/**
 * Recurring tasks, cron-like: each runs once per period across all processes. Every process
 * looks each second whether a task's period has turned; the first to move the task's row in
 * `recurring_tasks` to the new period runs it, the others see the row already moved. A process
 * that dies during a run loses that period's run only; the next period runs again.
 */
export interface RecurringTask {
  name: string;
  everyMs: number;
  /** Runs the task for `period` (the number of whole `everyMs` since the epoch this process claimed). */
  run(deps: Deps, signal: AbortSignal, period: number): Promise<unknown>;
}

const TICK_MS = 1_000;

const registered = new Map<string, RecurringTask>();

/** Adds recurring tasks to the ones this process runs (one registry: apps/server/src/jobs.ts). */
export const registerRecurring = (tasks: readonly RecurringTask[]) => {
  for (const task of tasks) registered.set(task.name, task);
};

/** Moves the task to `period` unless a process already did; true for the process that did. */
export const claimPeriod = async (deps: Deps, name: string, period: number): Promise<boolean> => {
  const result = await deps.db.execute(sql`
    INSERT INTO ${recurringTasks} (name, period, ran_at) VALUES (${name}, ${period}, now())
    ON CONFLICT (name) DO UPDATE SET period = excluded.period, ran_at = excluded.ran_at
      WHERE ${recurringTasks.period} < excluded.period
    RETURNING name`);
  return rowsOf(result).length > 0;
};

/** Starts the recurring tasks in this process; returns the stop function (waits for a run in flight). */
export const startRecurring = (deps: Deps, tasks: readonly RecurringTask[] = [...registered.values()]) => {
  const seen = new Map<string, number>();
  const abort = new AbortController();
  const inFlight = new Set<Promise<unknown>>();

  const runningHere = new Set<string>();

  const tick = () => {
    for (const task of tasks) {
      const period = Math.floor(Date.now() / task.everyMs);
      // A run that outlasts its period is not started again beside itself.
      if (seen.get(task.name) === period || runningHere.has(task.name)) continue;
      seen.set(task.name, period);
      runningHere.add(task.name);
      const run = claimPeriod(deps, task.name, period)
        .then((mine) => (mine && !abort.signal.aborted ? task.run(deps, abort.signal, period) : undefined))
        .catch((error) => deps.log.warn({ err: error, task: task.name }, 'a recurring task failed'))
        .finally(() => {
          runningHere.delete(task.name);
          inFlight.delete(run);
        });
      inFlight.add(run);
    }
  };
  const timer = setInterval(tick, TICK_MS);
  timer.unref?.();
  tick();

  return async () => {
    clearInterval(timer);
    abort.abort();
    await Promise.allSettled([...inFlight]);
  };
};
