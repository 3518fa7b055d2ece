import { and, count, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../platform/deps';
import { jobs } from '../platform/jobs.schema';
import { until } from './until';

/**
 * Waits until the outbox reactions queued so far (platform/domain-events.ts: webhook events,
 * mail) have run: they follow a change after its commit, on the job workers.
 */
export const settleReactions = async (deps: Deps) => {
  await until(
    async () => {
      const [row] = await deps.db
        .select({ left: count() })
        .from(jobs)
        .where(and(eq(jobs.type, 'domain-event.react'), inArray(jobs.status, ['queued', 'running'])));
      return row?.left ?? 0;
    },
    (left) => left === 0,
    30_000,
  );
};
