import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { campaignRecipients, channelMessages } from './schema';

/** What became of claimed campaign recipients, written for recipients and their messages in bulk. */

export type Outcome = {
  recipientId: string;
  /** `sending` with no claim: a send in doubt, reconciled later. */
  status: 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';
  messageId: string | null;
  providerSid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  skipReason: string | null;
  nextAttemptAt: Date | null;
  /** A retry, a quiet-hours wait or a send given back gives the attempt back. */
  refundAttempt: boolean;
};

export const outcomeOf = (recipientId: string, fields: Partial<Outcome> & Pick<Outcome, 'status'>): Outcome => ({
  recipientId,
  messageId: null,
  providerSid: null,
  errorCode: null,
  errorMessage: null,
  skipReason: null,
  nextAttemptAt: null,
  refundAttempt: false,
  ...fields,
});

/** Writes the outcomes of recipients and their messages together, in bulk. */
export const applyOutcomes = async (deps: Deps, outcomes: Outcome[]) => {
  if (!outcomes.length) return;
  await deps.db.transaction(async (tx) => {
    await writeOutcomes(tx, outcomes);
  });
};

const writeOutcomes = async (db: Tx, outcomes: Outcome[]) => {
  await db.execute(sql`
    UPDATE ${campaignRecipients} AS r SET
      status = o.status,
      message_id = COALESCE(o.message_id, r.message_id),
      error_code = o.error_code,
      skip_reason = o.skip_reason,
      next_attempt_at = COALESCE(o.next_attempt_at, r.next_attempt_at),
      attempts = CASE WHEN o.refund THEN r.attempts - 1 ELSE r.attempts END,
      claimed_by = NULL,
      sent_at = CASE WHEN o.status IN ('sent', 'delivered') THEN now() ELSE r.sent_at END,
      delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE r.delivered_at END,
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
    WHERE r.id = o.id`);
  const messages = outcomes.filter((o) => o.messageId);
  if (messages.length)
    await db.execute(sql`
      UPDATE ${channelMessages} AS m SET
        status = o.status, provider_sid = COALESCE(o.sid, m.provider_sid), error_code = o.error_code,
        error_message = o.error_message, attempts = m.attempts + 1,
        sent_at = CASE WHEN o.status IN ('sent', 'delivered') THEN now() ELSE m.sent_at END, updated_at = now()
      FROM unnest(
        ${sql.param(messages.map((o) => o.messageId))}::text[],
        ${sql.param(messages.map((o) => (o.status === 'skipped' ? 'failed' : o.status)))}::text[],
        ${sql.param(messages.map((o) => o.providerSid))}::text[],
        ${sql.param(messages.map((o) => o.errorCode ?? (o.skipReason || null)))}::text[],
        ${sql.param(messages.map((o) => o.errorMessage))}::text[]
      ) AS o(id, status, sid, error_code, error_message)
      WHERE m.id = o.id`);
};
