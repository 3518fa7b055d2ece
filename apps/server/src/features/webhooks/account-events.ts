import { eq } from 'drizzle-orm';
import { defineReaction } from '../../platform/domain-events';
import { subaccounts } from '../tenancy/schema';
import { anyoneListens, emitWebhookEvent } from './deliveries';

/** Billing publishes `credits.low`; every sub-account's endpoints that chose it hear it (n8n, Zapier …). */
export const announceLowCredits = defineReaction({
  event: 'credits.low',
  name: 'webhooks.credits-low',
  runs: 'after-commit',
  handle: async (deps, low, tx) => {
    const ofAccount = await (tx ?? deps.db)
      .select({ id: subaccounts.id })
      .from(subaccounts)
      .where(eq(subaccounts.accountId, low.accountId));
    for (const sub of ofAccount) {
      // The account's balance is real whatever spent it (an evaluation's model calls included).
      await emitWebhookEvent(
        deps,
        sub.id,
        'credits.low',
        { remaining: low.remaining, total: low.total, thresholdPercent: low.thresholdPercent },
        'live',
        tx,
      );
    }
  },
});

/**
 * The `evaluation.completed` event of a run that finished or failed. It is the agency's own notice
 * about its run, not something the run's conversations did, so it goes out as live; the run's
 * turns carry the evaluation origin and announce nothing.
 */
export const announceFinishedRun = defineReaction({
  event: 'evaluation.finished',
  name: 'webhooks.evaluation-completed',
  runs: 'after-commit',
  wants: (deps, run) => anyoneListens(deps, run.subaccountId, ['evaluation.completed']),
  handle: async (deps, { subaccountId, runId, progress, ...run }, tx) => {
    await emitWebhookEvent(
      deps,
      subaccountId,
      'evaluation.completed',
      {
        runId,
        ...run,
        total: progress.total,
        passed: progress.passed,
        failed: progress.failed,
        errors: progress.errors,
        passRate: progress.passRate,
      },
      'live',
      tx,
    );
  },
});
