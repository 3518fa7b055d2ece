import type { Deps } from '../deps';
import { getJob, type JobView } from './store';

/** Waits until a job is finished (or the time is up) and returns it: for tests and the CLI. */
export async function waitForJob(deps: Deps, jobId: string, timeoutMs = 10_000): Promise<JobView | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(deps, jobId);
    if (!job || job.status === 'succeeded' || job.status === 'failed' || Date.now() > until) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
