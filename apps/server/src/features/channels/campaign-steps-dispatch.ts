import type { TMessagingChannel } from '@switchboard/core';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { isConnectionPaused } from '../connections/pauses';
import type { Sequence, StepRow } from './campaign-steps';
import { campaignStepSends } from './campaign-steps.schema';
import { leaveSweep } from './campaign-steps-leave';
import { applyStepOutcomes } from './campaign-steps-outcomes';
import { type Claimed, prepare, type ToSend } from './campaign-steps-prepare';
import { reconcileStepDoubts } from './campaign-steps-reconcile';
import { shortenLinks } from './campaign-tracking';
import { webhookUrlOf } from './connections';
import type { DispatchRun } from './dispatch-batch';
import { failureOutcome, letForegroundFirst, RECONCILE_AFTER_MS } from './dispatch-batch';
import { outcomeOf } from './dispatch-outcomes';
import { campaignRecipients, campaigns, channelMessages } from './schema';
import { type ChannelTransport, TransportError } from './transport';

/**
 * The later steps of a sequence, run by the campaign's dispatch after its first message: each
 * recipient's next step is written once the step before is done for them (due after the step's
 * delay), then due steps are claimed, checked (left the sequence? picked by the condition? quiet
 * hours?) and sent once, exactly as the campaign's message is: the claim and its send key are
 * stored before the provider call, and a send left in doubt by a stopped run is reconciled with
 * the provider before anything else is sent.
 */

export interface StepsRunOptions {
  runId: string;
  signal?: AbortSignal;
  round?: number;
  /** Batches this run may still work. */
  batches: number;
  size: number;
  afterSend?: (stepSendId: string) => void;
}

export interface StepsRunResult {
  sent: number;
  /** Step sends queued or in doubt, and when the earliest is due. */
  pending: { n: number; next: string | null };
  /** Why the run stopped early, as the dispatch reports it. */
  stopped?: 'paused' | 'superseded' | 'continue' | 'auth_failed' | 'channel_paused';
  authFailure?: TransportError;
}

/**
 * Writes each recipient's next step once the step before is done for them: sent (the delay counts
 * from the send) or passed by (its condition did not pick them: from when it was due). Unique per
 * recipient and step, so writing it twice writes it once.
 */
export const advanceSequence = async (deps: Deps, campaignId: string, steps: StepRow[]) => {
  for (const step of steps) {
    const delay = `${step.delayMinutes} minutes`;
    const from =
      step.step === 2
        ? sql`SELECT r.id AS recipient_id, r.contact_id, r.phone, r.sent_at AS base FROM ${campaignRecipients} r
            WHERE r.campaign_id = ${campaignId} AND r.status IN ('sent', 'delivered') AND r.sent_at IS NOT NULL`
        : sql`SELECT s.recipient_id, s.contact_id, s.phone,
              CASE WHEN s.status IN ('sent', 'delivered') THEN s.sent_at ELSE s.due_at END AS base
            FROM ${campaignStepSends} s
            WHERE s.campaign_id = ${campaignId} AND s.step = ${step.step - 1}
              AND (s.status IN ('sent', 'delivered') OR (s.status = 'skipped' AND s.skip_reason = 'CONDITION'))`;
    await deps.db.execute(sql`
      INSERT INTO ${campaignStepSends} (id, campaign_id, recipient_id, contact_id, phone, step, status, due_at, next_attempt_at)
      SELECT 'css_' || substr(md5(random()::text || clock_timestamp()::text || p.recipient_id), 1, 16), ${campaignId},
        p.recipient_id, p.contact_id, p.phone, ${step.step}, 'queued',
        p.base + ${delay}::interval, p.base + ${delay}::interval
      FROM (${from}) AS p
      WHERE NOT EXISTS (SELECT 1 FROM ${campaignStepSends} x WHERE x.recipient_id = p.recipient_id AND x.step = ${step.step})
      ON CONFLICT (recipient_id, step) DO NOTHING`);
  }
};

/** Claims due step sends; each claim stores the run and the send key, and is in doubt until RECONCILE_AFTER_MS. */
const claimSteps = async (deps: Deps, campaignId: string, runId: string, size: number) =>
  rowsOf<Claimed>(
    await deps.db.execute(sql`
      UPDATE ${campaignStepSends} SET status = 'sending', attempts = attempts + 1, claimed_by = ${runId},
        claimed_at = now(), send_key = id || ':' || (attempts + 1),
        next_attempt_at = now() + ${`${RECONCILE_AFTER_MS} milliseconds`}::interval, updated_at = now()
      WHERE id IN (
        SELECT id FROM ${campaignStepSends}
        WHERE campaign_id = ${campaignId} AND status = 'queued' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT ${size}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, recipient_id, contact_id, phone, step, attempts, message_id, send_key`),
  );

/** The message rows of the sends, written before anything is sent, one per step and contact. */
const writeMessages = async (deps: Deps, run: DispatchRun, toSend: ToSend[]) => {
  const fresh = toSend.filter((item) => !item.row.message_id);
  if (!fresh.length) return;
  const { campaign, channel } = run;
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(channelMessages)
      .values(
        fresh.map((item) => ({
          id: item.messageId,
          subaccountId: campaign.subaccountId,
          connectionId: channel.connection.id,
          direction: 'outbound' as const,
          contactPhone: item.row.phone,
          body: item.body,
          status: 'sending',
          campaignId: campaign.id,
          idempotencyKey: `campaign:${campaign.id}:step:${item.row.step}:${item.row.contact_id}`,
          transport: channel.account.transport,
          source: 'campaign' as const,
        })),
      )
      .onConflictDoNothing();
    for (const item of fresh)
      await tx
        .update(campaignStepSends)
        .set({ messageId: item.messageId })
        .where(eq(campaignStepSends.id, item.row.id));
  });
};

/** Sends one claimed batch of step sends once each, and writes the outcomes together. */
const sendStepBatch = async (
  deps: Deps,
  run: DispatchRun,
  sequence: Sequence,
  claimed: Claimed[],
  afterSend?: (id: string) => void,
) => {
  const { campaign, channel, transport } = run;
  const { outcomes, toSend } = await prepare(deps, run, sequence, claimed);
  const shortened = await shortenLinks(
    deps,
    campaign,
    channel.account.transport === 'sandbox',
    toSend.map((item) => ({ recipientId: item.row.recipient_id, body: item.body })),
  );
  for (const item of toSend) item.body = shortened.get(item.row.recipient_id) ?? item.body;
  await writeMessages(deps, run, toSend);
  const result: { sent: number; authFailure?: TransportError; channelPaused?: boolean } = { sent: 0 };
  const giveBack = (items: ToSend[]) =>
    outcomes.push(
      ...items.map((item) =>
        outcomeOf(item.row.id, {
          status: 'queued',
          messageId: item.messageId,
          nextAttemptAt: new Date(),
          refundAttempt: true,
        }),
      ),
    );
  for (const [index, item] of toSend.entries()) {
    if (run.signal?.aborted || (await isConnectionPaused(deps, channel.connection.id))) {
      result.channelPaused = !run.signal?.aborted;
      giveBack(toSend.slice(index));
      break;
    }
    let sent: Awaited<ReturnType<ChannelTransport['send']>>;
    try {
      sent = await transport.send({
        channel: channel.connection.type as TMessagingChannel,
        to: item.row.phone,
        body: item.body,
        statusCallback: channel.account.transport === 'twilio' ? webhookUrlOf(deps, channel.connection.id) : undefined,
        idempotencyKey: item.row.send_key,
      });
    } catch (error) {
      if (error instanceof TransportError && error.authFailed) {
        result.authFailure = error;
        giveBack(toSend.slice(index));
        break;
      }
      outcomes.push(failureOutcome(item, error));
      continue;
    }
    afterSend?.(item.row.id);
    result.sent += 1;
    outcomes.push(
      outcomeOf(item.row.id, {
        status: sent.status === 'delivered' ? 'delivered' : 'sent',
        messageId: item.messageId,
        providerSid: sent.providerSid,
      }),
    );
  }
  await applyStepOutcomes(deps, outcomes);
  return result;
};

/** Why the run stops at this batch boundary: the campaign paused or changed round, or the run's turn is over. */
const interrupted = async (deps: Deps, campaignId: string, options: StepsRunOptions, batches: number) => {
  const [state] = await deps.db
    .select({ status: campaigns.status, round: campaigns.dispatchRound })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  if (state?.status !== 'sending') return 'paused' as const;
  if (options.round !== undefined && state.round !== options.round) return 'superseded' as const;
  if (options.signal?.aborted || batches >= options.batches) return 'continue' as const;
  return null;
};

const pendingOf = async (deps: Deps, campaignId: string) => {
  const [left] = rowsOf<{ n: number; next: string | null }>(
    await deps.db.execute(sql`
      SELECT count(*)::int AS n, min(next_attempt_at)::text AS next FROM ${campaignStepSends}
      WHERE campaign_id = ${campaignId} AND status IN ('queued', 'sending')`),
  );
  return { n: left?.n ?? 0, next: left?.next ?? null };
};

/**
 * One run over a sequence's later steps: those who left are taken out, sends in doubt reconciled,
 * next steps written, then due steps sent in batches until none is due or the run must stop.
 */
export const runSteps = async (
  deps: Deps,
  run: DispatchRun,
  sequence: Sequence | null,
  options: StepsRunOptions,
): Promise<StepsRunResult> => {
  const campaignId = run.campaign.id;
  if (!sequence?.steps.length) return { sent: 0, pending: { n: 0, next: null } };
  await leaveSweep(deps, run.channel, campaignId, sequence);
  const settled = await reconcileStepDoubts(deps, run);
  if (settled.authFailure)
    return {
      sent: 0,
      pending: await pendingOf(deps, campaignId),
      stopped: 'auth_failed',
      authFailure: settled.authFailure,
    };
  let sent = 0;
  for (let batches = 0; ; batches += 1) {
    const stop = await interrupted(deps, campaignId, options, batches);
    if (stop) return { sent, pending: await pendingOf(deps, campaignId), stopped: stop };
    await advanceSequence(deps, campaignId, sequence.steps);
    const claimed = await claimSteps(deps, campaignId, options.runId, options.size);
    if (!claimed.length) {
      const late = await reconcileStepDoubts(deps, run);
      if (late.authFailure)
        return {
          sent,
          pending: await pendingOf(deps, campaignId),
          stopped: 'auth_failed',
          authFailure: late.authFailure,
        };
      if (late.unsent) continue;
      break;
    }
    const batch = await sendStepBatch(deps, run, sequence, claimed, options.afterSend);
    sent += batch.sent;
    if (batch.authFailure)
      return {
        sent,
        pending: await pendingOf(deps, campaignId),
        stopped: 'auth_failed',
        authFailure: batch.authFailure,
      };
    if (batch.channelPaused) return { sent, pending: await pendingOf(deps, campaignId), stopped: 'channel_paused' };
    await letForegroundFirst();
  }
  return { sent, pending: await pendingOf(deps, campaignId) };
};
