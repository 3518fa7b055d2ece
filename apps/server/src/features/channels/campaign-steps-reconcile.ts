import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { jobs } from '../../platform/jobs.schema';
import { campaignStepSends } from './campaign-steps.schema';
import { applyStepOutcomes } from './campaign-steps-outcomes';
import type { DispatchRun } from './dispatch-batch';
import { type Outcome, outcomeOf } from './dispatch-outcomes';
import { askProvider, type Doubt } from './reconcile';
import { channelMessages } from './schema';
import { TransportError } from './transport';

/**
 * Step sends left `sending` by a run that stopped between the provider call and storing its
 * outcome (a killed process), whose reconcile time has come; a claim of a run still alive (a fresh
 * heartbeat of its job) is left to it.
 */
const doubtsOf = async (deps: Deps, campaignId: string, runId: string) =>
  rowsOf<Doubt>(
    await deps.db.execute(sql`
      SELECT s.id, s.phone, s.send_key, coalesce(s.claimed_at, m.created_at, s.updated_at)::text AS since,
        s.message_id, m.provider_sid, m.body
      FROM ${campaignStepSends} s LEFT JOIN ${channelMessages} m ON m.id = s.message_id
      WHERE s.campaign_id = ${campaignId} AND s.status = 'sending' AND s.next_attempt_at <= now()
        AND (s.claimed_by IS NULL OR split_part(s.claimed_by, '#', 1) = ${runId.split('#')[0] ?? runId}
          OR NOT EXISTS (
            SELECT 1 FROM ${jobs} j WHERE j.id = split_part(s.claimed_by, '#', 1)
              AND j.status = 'running' AND j.heartbeat_at > now() - interval '30 seconds'))
      ORDER BY s.id LIMIT 500`),
  );

/**
 * Settles a sequence's step sends in doubt with the provider (Twilio's message list, the sandbox's
 * log, by the send key): those it has are marked sent, the others go back to the queue to be sent
 * once; when it cannot be asked they become unconfirmed and are never sent again by themselves.
 */
export const reconcileStepDoubts = async (deps: Deps, run: DispatchRun) => {
  const doubts = await doubtsOf(deps, run.campaign.id, run.runId);
  const result: { unsent: number; authFailure?: TransportError } = { unsent: 0 };
  if (!doubts.length) return result;
  const recorded = doubts.filter((doubt) => doubt.provider_sid);
  const open = doubts.filter((doubt) => !doubt.provider_sid);
  const outcomes: Outcome[] = recorded.map((doubt) =>
    outcomeOf(doubt.id, { status: 'sent', messageId: doubt.message_id }),
  );
  if (open.length) {
    try {
      outcomes.push(...(await askProvider(deps, run, open)).outcomes);
    } catch (error) {
      if (error instanceof TransportError && error.authFailed) return { ...result, authFailure: error };
      outcomes.push(
        ...open.map((doubt) =>
          outcomeOf(doubt.id, { status: 'unconfirmed' as Outcome['status'], errorCode: 'UNCONFIRMED' }),
        ),
      );
    }
  }
  result.unsent = outcomes.filter((outcome) => outcome.status === 'queued').length;
  await applyStepOutcomes(deps, outcomes);
  deps.log.warn({ campaignId: run.campaign.id, doubts: doubts.length }, 'step sends in doubt were reconciled');
  return result;
};
