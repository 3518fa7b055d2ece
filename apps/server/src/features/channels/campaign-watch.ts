import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import type { RecurringTask } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { queueDispatchJob, resumeHeld } from './campaign-rounds';
import { pruneSandboxLog } from './sandbox-transport';
import { campaigns } from './schema';

/** Campaigns looked at per pass. */
const PASS_LIMIT = 100;

/**
 * Sending campaigns whose current round has no queued or running dispatch job (its job failed for
 * good without holding the campaign, was pruned, or ended without queueing the next round): each
 * gets a new round, so no campaign stays "sending" with nothing sending it.
 */
export const requeueStranded = async (deps: Deps) => {
  const stranded = rowsOf<{ id: string; subaccount_id: string; dispatch_round: number }>(
    await deps.db.execute(sql`
      SELECT c.id, c.subaccount_id, c.dispatch_round FROM ${campaigns} c
      WHERE c.status = 'sending' AND NOT EXISTS (
        SELECT 1 FROM ${jobs} j
        WHERE j.idempotency_key = 'campaign:' || c.id || ':' || c.dispatch_round AND j.status IN ('queued', 'running'))
      LIMIT ${PASS_LIMIT}`),
  );
  for (const row of stranded) {
    const round = row.dispatch_round + 1;
    const queued = await deps.db.transaction(async (tx) => {
      const moved = await tx
        .update(campaigns)
        .set({ dispatchRound: round, updatedAt: new Date() })
        .where(
          and(
            eq(campaigns.id, row.id),
            eq(campaigns.status, 'sending'),
            eq(campaigns.dispatchRound, row.dispatch_round),
          ),
        )
        .returning({ id: campaigns.id });
      if (!moved.length) return false;
      await queueDispatchJob(deps, { id: row.id, subaccountId: row.subaccount_id }, round, new Date(), tx);
      return true;
    });
    if (queued) deps.log.warn({ campaignId: row.id, round }, 'a sending campaign had no dispatch job: one was queued');
  }
  return stranded.length;
};

/**
 * The campaign watch, once per period across all processes: campaigns held because their channel
 * was paused or their credentials refused go on once that is over (a resume in Launch, credentials
 * saved from another process), and stranded sending campaigns get a dispatch job.
 */
export const CAMPAIGN_WATCH: RecurringTask = {
  name: 'channels:campaign-watch',
  everyMs: 5_000,
  run: async (deps) => {
    await resumeHeld(deps, 'channel_paused');
    await resumeHeld(deps, 'auth_failed');
    await requeueStranded(deps);
  },
};

/** Drops old entries of the sandbox's send log. */
export const SANDBOX_LOG_PRUNE: RecurringTask = {
  name: 'channels:prune-sandbox-log',
  everyMs: 3_600_000,
  run: (deps) => pruneSandboxLog(deps.db),
};
