import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import type { RecurringTask } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { endRun } from './engine';
import * as repo from './repo';
import { evaluationRuns } from './schema';

/** Runs looked at per pass. */
const PASS_LIMIT = 100;

/** What a run whose job ended for good without ending it says. */
const stoppedError = (jobError: string | null) =>
  jobError ? `The run stopped and could not go on: ${jobError}` : 'The run stopped and could not go on.';

/**
 * Queued or running runs whose job is over (failed for good after its attempts, or gone) end as
 * failed, with their webhook event: no run stays "running" with nothing running it. A run and
 * its job are written in one transaction, so a run without a job id is one being started.
 */
export const failStrandedRuns = async (deps: Deps) => {
  const stranded = rowsOf<{ id: string; total: number; job_error: string | null }>(
    await deps.db.execute(sql`
      SELECT r.id, r.total, j.error AS job_error FROM ${evaluationRuns} r
      LEFT JOIN ${jobs} j ON j.id = r.job_id
      WHERE r.status IN ('queued', 'running') AND r.job_id IS NOT NULL
        AND (j.id IS NULL OR j.status NOT IN ('queued', 'running'))
      LIMIT ${PASS_LIMIT}`),
  );
  for (const run of stranded) {
    const progress = (await repo.progressByRun(deps.db, [run])).get(run.id) ?? repo.progressOf(run.total, 0, 0);
    const ended = await endRun(
      deps,
      run.id,
      ['queued', 'running'],
      { status: 'failed', error: stoppedError(run.job_error) },
      progress,
    );
    if (ended) deps.log.warn({ runId: run.id }, 'an evaluation run had no job left: it was ended as failed');
  }
  return stranded.length;
};

/** The evaluation watch, once a minute across all processes. */
export const EVALUATION_WATCH: RecurringTask = {
  name: 'evaluation:stranded-runs',
  everyMs: 60_000,
  run: async (deps) => {
    await failStrandedRuns(deps);
  },
};
