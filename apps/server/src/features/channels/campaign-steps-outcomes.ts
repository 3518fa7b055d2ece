import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { campaignStepSends } from './campaign-steps.schema';
import { threadCampaignMessages } from './campaign-threads';
import { announceThreaded, type Outcome, writeMessageOutcomes } from './dispatch-outcomes';

/**
 * Writes what became of claimed step sends and their messages in one transaction; a confirmed
 * send's message joins the recipient's conversation in it, as a campaign message does.
 */
export const applyStepOutcomes = async (deps: Deps, outcomes: Outcome[]) => {
  if (!outcomes.length) return;
  const confirmed = outcomes
    .filter((o) => o.messageId && (o.status === 'sent' || o.status === 'delivered'))
    .map((o) => o.messageId as string);
  const threaded = await deps.db.transaction(async (tx) => {
    await writeStepOutcomes(tx, outcomes);
    await writeMessageOutcomes(tx, outcomes);
    return threadCampaignMessages(tx, confirmed);
  });
  await announceThreaded(deps, threaded);
};

const writeStepOutcomes = (tx: Tx, outcomes: Outcome[]) =>
  tx.execute(sql`
    UPDATE ${campaignStepSends} AS s SET
      status = o.status,
      message_id = COALESCE(o.message_id, s.message_id),
      error_code = o.error_code,
      skip_reason = o.skip_reason,
      next_attempt_at = COALESCE(o.next_attempt_at, s.next_attempt_at),
      attempts = CASE WHEN o.refund THEN s.attempts - 1 ELSE s.attempts END,
      claimed_by = NULL,
      sent_at = CASE WHEN o.status IN ('sent', 'delivered') THEN COALESCE(s.sent_at, now()) ELSE s.sent_at END,
      updated_at = now()
    FROM unnest(
      ${sql.param(outcomes.map((o) => o.recipientId))}::text[],
      ${sql.param(outcomes.map((o) => o.status))}::text[],
      ${sql.param(outcomes.map((o) => o.messageId))}::text[],
      ${sql.param(outcomes.map((o) => o.errorCode))}::text[],
      ${sql.param(outcomes.map((o) => o.skipReason))}::text[],
      ${sql.param(outcomes.map((o) => o.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
      ${sql.param(outcomes.map((o) => o.refundAttempt))}::boolean[]
    ) AS o(id, status, message_id, error_code, skip_reason, next_attempt_at, refund)
    WHERE s.id = o.id`);
