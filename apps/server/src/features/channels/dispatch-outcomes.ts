import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { type Deps, embeddedDatabase } from '../../platform/deps';
import { rememberWritten } from '../conversations/history';
import { conversationsChannel, threadChannel } from '../conversations/repo';
import { type ThreadedCampaignMessage, threadCampaignMessages } from './campaign-threads';
import type { Channel } from './connections';
import { campaignRecipients, channelMessages } from './schema';
import { suppressFailed } from './suppressions';

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

/**
 * Writes the outcomes of recipients and their messages together, in bulk; a confirmed send's
 * message joins its recipient's conversation in the same transaction (campaign-threads.ts).
 */
export const applyOutcomes = async (
  deps: Deps,
  outcomes: Outcome[],
  /** Numbers whose send failed for good: suppressed in the same transaction. */
  failures?: { channel: Channel; failedNumbers: { phone: string; code: string; message: string | null }[] },
) => {
  if (!outcomes.length) return;
  const confirmed = outcomes
    .filter((o) => o.messageId && (o.status === 'sent' || o.status === 'delivered'))
    .map((o) => o.messageId as string);
  const threaded = await deps.db.transaction(async (tx) => {
    await writeOutcomes(tx, outcomes);
    for (const failed of failures?.failedNumbers ?? [])
      await suppressFailed(tx, failures?.channel as Channel, failed.phone, failed);
    return threadCampaignMessages(tx, confirmed);
  });
  await announceThreaded(deps, threaded);
};

/** After the commit: the conversations' history in memory, and the inbox's live list. */
export const announceThreaded = async (deps: Deps, threaded: ThreadedCampaignMessage[]) => {
  if (!threaded.length) return;
  if (embeddedDatabase(deps)) rememberWritten(deps.db, threaded);
  await Promise.all(
    threaded.flatMap((message) => {
      const payload = {
        threadId: message.threadId,
        message: {
          id: message.id,
          role: message.role,
          source: 'campaign',
          content: message.content,
          createdAt: message.createdAt.toISOString(),
          sources: [],
          toolCalls: [],
          offline: false,
        },
      };
      return [
        deps.bus.publish(threadChannel(message.threadId), payload),
        deps.bus.publish(conversationsChannel(message.subaccountId), payload),
      ];
    }),
  );
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
  await writeMessageOutcomes(db, outcomes);
};

/** The outcomes' channel messages: status, provider id and error, in one statement. */
export const writeMessageOutcomes = async (db: Tx, outcomes: Outcome[]) => {
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
