import type { TCampaignAudience } from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { type ContinueLater, continueLater, defineJob, RetryableJobError } from '../../platform/jobs';
import { emitWebhookEvent } from '../webhooks/deliveries';
import { getCampaign } from './campaign-report';
import {
  authFailedHold,
  CAMPAIGN_DISPATCH_JOB,
  CHANNEL_PAUSED_HOLD,
  DISPATCH_ATTEMPTS,
  dispatchFailedHold,
  holdCampaign,
  queueDispatchJob,
  rootCause,
} from './campaign-rounds';
import { sequenceOf } from './campaign-steps';
import { runSteps } from './campaign-steps-dispatch';
import { audienceSql } from './campaigns';
import { channelEvents } from './channel-events';
import { type Channel, findChannel, markChannelError, transportOf } from './connections';
import { claimBatch, type DispatchRun, letForegroundFirst, sendBatch } from './dispatch-batch';
import { reconcileDoubts } from './reconcile';
import { campaignRecipients, campaigns, contacts } from './schema';
import { suppressionSkipSql } from './suppressions';
import type { TransportError } from './transport';

/**
 * Recipients written or claimed per statement. Small enough that no statement holds the embedded
 * database (which runs on the event loop) for long, so chats keep flowing while a campaign sends.
 */
const BATCH = 100;
/**
 * On the embedded database every statement has the one connection to itself, so a campaign claims
 * and sends smaller batches there: a visitor's chat waits behind a shorter statement (the campaign
 * still sends well over its target rate; see the campaign benchmark).
 */
const EMBEDDED_BATCH = 20;
/** Batches one run works before it hands the rest of the campaign back to the queue. */
export const BATCHES_PER_RUN = 50;

/** Lets waiting work (a widget chat's statements) run between the campaign's statements. */
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Writes the campaign's recipients from its audience, BATCH contacts per statement in contact id
 * order, keeping the last id written on the campaign so a stopped run continues where it was.
 * Numbers on the sender's suppression list are written as skipped (OPTED_OUT, or SUPPRESSED after a
 * permanent failure), so the report shows them.
 */
export const fillRecipients = async (deps: Deps, campaign: typeof campaigns.$inferSelect, channel: Channel) => {
  let cursor = campaign.recipientsCursor;
  while (cursor !== null) {
    const audience = audienceSql(campaign.subaccountId, campaign.audience as TCampaignAudience);
    const [picked] = rowsOf<{ last: string | null; n: number }>(
      await deps.db.execute(sql`
        WITH picked AS (
          SELECT c.id, c.phone, ${suppressionSkipSql(channel, sql`c.phone`)} AS skip FROM ${contacts} c
          WHERE ${audience} AND c.id > ${cursor} ORDER BY c.id LIMIT ${BATCH}
        ), inserted AS (
          INSERT INTO ${campaignRecipients} (id, campaign_id, contact_id, phone, status, skip_reason)
          SELECT 'crc_' || substr(md5(random()::text || clock_timestamp()::text || p.id), 1, 16), ${campaign.id}, p.id, p.phone,
            CASE WHEN p.skip IS NOT NULL THEN 'skipped' ELSE 'queued' END, p.skip
          FROM picked p
          ON CONFLICT (campaign_id, contact_id) DO NOTHING
        )
        SELECT max(id) AS last, count(*)::int AS n FROM picked`),
    );
    const next = picked && picked.n >= BATCH ? (picked.last as string) : null;
    await deps.db.update(campaigns).set({ recipientsCursor: next }).where(eq(campaigns.id, campaign.id));
    cursor = next;
    await new Promise((resolve) => setImmediate(resolve));
  }
};

export interface DispatchOptions {
  /** The run's claim mark: the job id and attempt (`job_…#2`). */
  runId: string;
  /** Aborted when the process stops or the job's claim was lost: the run stops at its next send. */
  signal?: AbortSignal;
  /** The round the run belongs to: a run of an earlier round stops (a resume queued a newer one). */
  round?: number;
  maxBatches?: number;
  /** Called after each provider call, before its outcome is stored (a test stops a run there, as a crash would). */
  afterSend?: (recipientId: string) => void;
}

type RunEnd = { [key: string]: unknown } | ContinueLater;

/** The campaign and its channel when there is something to send; otherwise why not. */
const beginRun = async (deps: Deps, campaignId: string) => {
  const [campaign] = await deps.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign) return { stopped: 'deleted' };
  if (campaign.status === 'scheduled') {
    await deps.db
      .update(campaigns)
      .set({ status: 'sending', startedAt: campaign.startedAt ?? new Date(), updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'scheduled')));
  } else if (campaign.status !== 'sending') return { stopped: campaign.status };
  const channel = await findChannel(deps.db, campaign.connectionId);
  if (!channel) return { stopped: 'connection deleted' };
  return { campaign, channel };
};

/** The provider refused the credentials: the channel shows TWILIO_AUTH_FAILED and the campaign waits for new ones. */
const holdForAuth = async (deps: Deps, run: DispatchRun, error: TransportError, sent: number) => {
  await markChannelError(
    deps,
    run.channel.connection.id,
    { code: 'TWILIO_AUTH_FAILED', message: error.message },
    run.channel.account.updatedAt,
  );
  await holdCampaign(deps, run.campaign.id, authFailedHold(error.message));
  return { held: 'auth_failed', sent };
};

/** Why the run stops at this batch boundary, if it does. */
const interruption = async (deps: Deps, run: DispatchRun, options: DispatchOptions, batches: number, sent: number) => {
  const [state] = await deps.db
    .select({ status: campaigns.status, round: campaigns.dispatchRound })
    .from(campaigns)
    .where(eq(campaigns.id, run.campaign.id));
  if (state?.status !== 'sending') return { stopped: state?.status ?? 'deleted', sent };
  if (options.round !== undefined && state.round !== options.round) return { stopped: 'superseded', sent };
  if (options.signal?.aborted || batches >= (options.maxBatches ?? BATCHES_PER_RUN)) return continueLater();
  return null;
};

/**
 * One run of a campaign's dispatch: writes the recipients, reconciles the sends a stopped run left
 * in doubt, then claims due recipients in batches and sends each once (dispatch-batch.ts). It stops
 * at a batch boundary when the campaign is paused, its channel is paused in Launch (the campaign is
 * held until the channel is active again), the provider refuses the credentials (held until they are
 * updated), or the job is told to stop or has worked its batches (the rest is handed back to the
 * queue). When only later work is left the next round is queued for then; with none, it completes.
 */
export const dispatchCampaign = async (deps: Deps, campaignId: string, options: DispatchOptions): Promise<RunEnd> => {
  const begun = await beginRun(deps, campaignId);
  if (!('campaign' in begun) || !begun.campaign || !begun.channel) return begun;
  const { campaign, channel } = begun;
  const run: DispatchRun = {
    campaign,
    channel,
    transport: transportOf(deps, channel.account),
    runId: options.runId,
    signal: options.signal,
    afterSend: options.afterSend,
  };
  await fillRecipients(deps, campaign, channel);
  const settled = await reconcileDoubts(deps, run);
  if (settled.authFailure) return holdForAuth(deps, run, settled.authFailure, 0);

  const size = Math.min(
    deps.database.driver === 'pglite' ? EMBEDDED_BATCH : BATCH,
    channel.account.sendRatePerSecond > 0 ? channel.account.sendRatePerSecond : Number.POSITIVE_INFINITY,
  );
  let sent = 0;
  let batches = 0;
  for (; ; batches += 1) {
    const stop = await interruption(deps, run, options, batches, sent);
    if (stop) return stop;
    const claimed = await claimBatch(deps, campaign.id, options.runId, size);
    if (!claimed.length) {
      // Sends left in doubt by this run (an answer lost on the way) whose reconcile time has come.
      const late = await reconcileDoubts(deps, run);
      if (late.authFailure) return holdForAuth(deps, run, late.authFailure, sent);
      if (late.unsent) continue;
      break;
    }
    await yieldToOthers();
    const batch = await sendBatch(deps, run, claimed);
    sent += batch.sent;
    await deps.bus.publish(channelEvents(channel.connection.id), { campaignId: campaign.id, kind: 'campaign' });
    if (batch.authFailure) return holdForAuth(deps, run, batch.authFailure, sent);
    if (batch.channelPaused) {
      await holdCampaign(deps, campaign.id, CHANNEL_PAUSED_HOLD);
      return { held: 'channel_paused', sent };
    }
    await letForegroundFirst();
  }
  // A sequence's later steps, within the same run's batches (campaign-steps-dispatch.ts).
  const steps = await runSteps(deps, run, await sequenceOf(deps.db, campaign.id), {
    runId: options.runId,
    signal: options.signal,
    round: options.round,
    batches: (options.maxBatches ?? BATCHES_PER_RUN) - batches,
    size,
    afterSend: options.afterSend,
  });
  sent += steps.sent;
  if (steps.authFailure) return holdForAuth(deps, run, steps.authFailure, sent);
  if (steps.stopped === 'channel_paused') {
    await holdCampaign(deps, campaign.id, CHANNEL_PAUSED_HOLD);
    return { held: 'channel_paused', sent };
  }
  if (steps.stopped === 'continue') return continueLater();
  if (steps.stopped) return { stopped: steps.stopped, sent };
  return finishOrWait(deps, campaign, channel, sent, steps.pending);
};

/** Nothing due now: either the campaign is done, or the next round is queued for when the rest is due. */
const finishOrWait = async (
  deps: Deps,
  campaign: typeof campaigns.$inferSelect,
  channel: Channel,
  sent: number,
  /** A sequence's step sends still to come, and when the earliest is due. */
  steps: { n: number; next: string | null },
) => {
  const [first] = rowsOf<{ n: number; next: string | null }>(
    await deps.db.execute(sql`
      SELECT count(*)::int AS n, min(next_attempt_at)::text AS next FROM ${campaignRecipients}
      WHERE campaign_id = ${campaign.id} AND status IN ('queued', 'sending')`),
  );
  const nexts = [first?.next, steps.next].filter((at): at is string => Boolean(at)).map((at) => Date.parse(at));
  const left = {
    n: (first?.n ?? 0) + steps.n,
    next: nexts.length ? new Date(Math.min(...nexts)).toISOString() : null,
  };
  if (!left.n) {
    await completeCampaign(deps, campaign, channel);
    return { completed: true, sent };
  }
  const round = campaign.dispatchRound + 1;
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(campaigns)
      .set({ dispatchRound: round, updatedAt: new Date() })
      .where(
        and(
          eq(campaigns.id, campaign.id),
          eq(campaigns.status, 'sending'),
          eq(campaigns.dispatchRound, campaign.dispatchRound),
        ),
      )
      .returning({ id: campaigns.id });
    if (!updated.length) return;
    const runAt = new Date(Math.max(Date.now(), left.next ? Date.parse(left.next) : Date.now()));
    await queueDispatchJob(deps, campaign, round, runAt, tx);
  });
  return { waiting: left.n, sent };
};

const completeCampaign = async (deps: Deps, campaign: typeof campaigns.$inferSelect, channel: Channel) => {
  const finished = await deps.db
    .update(campaigns)
    .set({ status: 'completed', completedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'sending')))
    .returning({ id: campaigns.id });
  await deps.bus.publish(channelEvents(channel.connection.id), { campaignId: campaign.id, kind: 'campaign' });
  if (!finished.length) return;
  const view = await getCampaign(deps, campaign.subaccountId, campaign.id);
  await emitWebhookEvent(
    deps,
    campaign.subaccountId,
    'campaign.completed',
    {
      campaignId: view.campaignId,
      connectionId: view.connectionId,
      channel: view.channel,
      name: view.name,
      recipients: view.figures.total,
      sent: view.figures.sent,
      delivered: view.figures.delivered,
      failed: view.figures.failed,
      skipped: view.figures.skipped,
      optedOut: view.figures.optedOut,
      replied: view.figures.replied,
    },
    'live',
  );
};

/**
 * Sends a campaign's due recipients in bounded runs, each handing the rest back. A failed run is
 * retried with backoff; when the last attempt fails the campaign is held (paused, with the error on
 * its report) rather than left sending without a job.
 */
export const campaignDispatchJob = defineJob({
  type: CAMPAIGN_DISPATCH_JOB,
  queue: 'campaigns',
  schema: z.object({ campaignId: z.string(), round: z.number().int().optional() }),
  maxAttempts: DISPATCH_ATTEMPTS,
  handler: async (deps, job) => {
    const { campaignId, round } = job.payload;
    try {
      return await dispatchCampaign(deps, campaignId, { runId: `${job.id}#${job.attempt}`, signal: job.signal, round });
    } catch (error) {
      if (job.signal.aborted) throw error;
      if (job.attempt < job.maxAttempts)
        throw new RetryableJobError(`The campaign dispatch failed: ${rootCause(error)}`, { cause: error });
      await holdCampaign(deps, campaignId, dispatchFailedHold(error));
      throw error;
    }
  },
});
