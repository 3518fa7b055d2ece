import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { jobs } from '../../platform/jobs.schema';
import type { DispatchRun } from './dispatch-batch';
import { applyOutcomes, type Outcome, outcomeOf } from './dispatch-outcomes';
import { campaignRecipients, channelMessages } from './schema';
import type { SendInDoubt } from './transport';
import { TransportError } from './transport';

/** A job whose heartbeat is older than this is no longer running anywhere (the engine's stale limit). */
const ALIVE_WITHIN = sql`interval '30 seconds'`;
/** Sends in doubt reconciled per pass; a campaign has at most a few batches of them. */
const PASS_LIMIT = 500;

/** A send in doubt, a campaign recipient's or a sequence step's (campaign-steps-reconcile.ts). */
export type Doubt = {
  id: string;
  phone: string;
  send_key: string | null;
  since: string;
  message_id: string | null;
  provider_sid: string | null;
  body: string | null;
  content_sid?: string | null;
};

/**
 * The campaign's sends in doubt: recipients left `sending` whose outcome was never stored, and
 * whose reconcile time has come. A claim of another dispatch job that is still running (its
 * heartbeat is fresh) is that run's own business; a claim of this run's job is from an earlier run
 * of it, which has stopped.
 */
const doubtsOf = async (deps: Deps, campaignId: string, runId: string) =>
  rowsOf<Doubt>(
    await deps.db.execute(sql`
      SELECT r.id, r.phone, r.send_key, coalesce(r.claimed_at, m.created_at, r.updated_at)::text AS since,
        r.message_id, m.provider_sid, m.body, m.content_sid
      FROM ${campaignRecipients} r LEFT JOIN ${channelMessages} m ON m.id = r.message_id
      WHERE r.campaign_id = ${campaignId} AND r.status = 'sending' AND r.next_attempt_at <= now()
        AND (r.claimed_by IS NULL OR split_part(r.claimed_by, '#', 1) = ${runId.split('#')[0] ?? runId}
          OR NOT EXISTS (
            SELECT 1 FROM ${jobs} j WHERE j.id = split_part(r.claimed_by, '#', 1)
              AND j.status = 'running' AND j.heartbeat_at > now() - ${ALIVE_WITHIN}))
      ORDER BY r.id LIMIT ${PASS_LIMIT}`),
  );

/** Provider ids this connection already stored for these numbers: never taken for a send in doubt. */
const knownSidsFor = async (deps: Deps, connectionId: string, doubts: Doubt[]) => {
  const earliest = doubts.reduce((min, doubt) => Math.min(min, Date.parse(doubt.since)), Date.now());
  const rows = rowsOf<{ sid: string }>(
    await deps.db.execute(sql`
      SELECT provider_sid AS sid FROM ${channelMessages}
      WHERE connection_id = ${connectionId} AND provider_sid IS NOT NULL
        AND contact_phone = ANY(${sql.param(doubts.map((doubt) => doubt.phone))}::text[])
        AND created_at > ${new Date(earliest - 86_400_000).toISOString()}::timestamptz`),
  );
  return new Set(rows.map((row) => row.sid));
};

/**
 * Asks the provider (Twilio's message list, the sandbox's own log, by the send key) about sends in
 * doubt with no provider id stored: those it has are sent with its id, the others go back to the
 * queue to be sent once. Throws when it cannot be asked (the caller decides what that means).
 */
export const askProvider = async (deps: Deps, run: DispatchRun, open: Doubt[]) => {
  if (!run.transport.findSent) throw new Error('this provider cannot be asked');
  const sends: SendInDoubt[] = open.map((doubt) => ({
    id: doubt.id,
    key: doubt.send_key,
    channel: run.channel.connection.type,
    to: doubt.phone,
    body: doubt.body ?? '',
    template: Boolean(doubt.content_sid),
    since: new Date(doubt.since),
  }));
  const found = await run.transport.findSent(sends, await knownSidsFor(deps, run.channel.connection.id, open));
  const outcomes = open.map((doubt) => {
    const sent = found.get(doubt.id);
    if (!sent) return outcomeOf(doubt.id, { status: 'queued', nextAttemptAt: new Date() });
    return outcomeOf(doubt.id, {
      status: sent.status === 'delivered' ? 'delivered' : 'sent',
      messageId: doubt.message_id,
      providerSid: sent.providerSid,
    });
  });
  return { outcomes, found: found.size };
};

/** Sends in doubt the provider could not be asked about: they stay visible, for "Retry unsent". */
const markUnconfirmed = async (deps: Deps, doubts: Doubt[], reason: string) => {
  const ids = sql.param(doubts.map((doubt) => doubt.id));
  await deps.db.execute(sql`
    UPDATE ${campaignRecipients} SET status = 'unconfirmed', error_code = 'UNCONFIRMED', claimed_by = NULL, updated_at = now()
    WHERE id = ANY(${ids}::text[])`);
  await deps.db.execute(sql`
    UPDATE ${channelMessages} SET error_code = 'UNCONFIRMED',
      error_message = ${`Whether this message was sent could not be confirmed: ${reason}`.slice(0, 500)}, updated_at = now()
    WHERE id IN (SELECT message_id FROM ${campaignRecipients} WHERE id = ANY(${ids}::text[]))`);
};

export interface Reconciled {
  found: number;
  unsent: number;
  unconfirmed: number;
  /** The provider refused the credentials: the sends stay in doubt until they are fixed. */
  authFailure?: TransportError;
}

/**
 * Settles the campaign's sends in doubt against the provider: with a provider id stored the send
 * was recorded and only its outcome was lost; otherwise the provider is asked (Twilio's message
 * list, the sandbox's own log). Those it has are marked sent with its id, the others go back to the
 * queue to be sent once; when it cannot be asked they become unconfirmed.
 */
export const reconcileDoubts = async (deps: Deps, run: DispatchRun): Promise<Reconciled> => {
  const doubts = await doubtsOf(deps, run.campaign.id, run.runId);
  const result: Reconciled = { found: 0, unsent: 0, unconfirmed: 0 };
  if (!doubts.length) return result;
  const recorded = doubts.filter((doubt) => doubt.provider_sid);
  const open = doubts.filter((doubt) => !doubt.provider_sid);
  const outcomes: Outcome[] = recorded.map((doubt) =>
    outcomeOf(doubt.id, { status: 'sent', messageId: doubt.message_id }),
  );
  let found = 0;
  if (open.length) {
    try {
      const asked = await askProvider(deps, run, open);
      outcomes.push(...asked.outcomes);
      found = asked.found;
    } catch (error) {
      if (error instanceof TransportError && error.authFailed) return { ...result, authFailure: error };
      await markUnconfirmed(deps, open, (error as Error).message);
      deps.log.warn(
        { campaignId: run.campaign.id, err: error, unconfirmed: open.length },
        'sends in doubt could not be reconciled: the provider could not be asked',
      );
      result.unconfirmed = open.length;
      open.length = 0;
    }
  }
  result.found = recorded.length + found;
  result.unsent = open.length - found;
  await applyOutcomes(deps, outcomes);
  if (outcomes.length)
    deps.log.warn({ campaignId: run.campaign.id, ...result }, 'sends in doubt were reconciled with the provider');
  return result;
};
