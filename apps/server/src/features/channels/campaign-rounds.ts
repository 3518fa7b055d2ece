import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { enqueueJob } from '../../platform/jobs';
import { connectionPauses } from '../connections/schema';
import { channelEvents } from './channel-events';
import { campaigns, channelAccounts } from './schema';

/**
 * A campaign's dispatch rounds and holds. Every start, resume or restart is a round with one
 * dispatch job (its idempotency key names the round). A campaign pauses itself (a hold) when its
 * channel is paused in Launch, when the provider refuses the credentials, or when its dispatch
 * fails for good; the first two resume by themselves once their cause is gone.
 */

export const CAMPAIGN_DISPATCH_JOB = 'campaign:dispatch';
/** Runs of one dispatch job: a failure is retried with backoff, and the last one holds the campaign. */
export const DISPATCH_ATTEMPTS = 10;

type CampaignRow = typeof campaigns.$inferSelect;
export type HoldReason = NonNullable<CampaignRow['holdReason']>;
export interface CampaignHold {
  reason: HoldReason;
  /** An error code of the catalogue: its advice and action show on the report. */
  code: string;
  message: string;
}

export const CHANNEL_PAUSED_HOLD: CampaignHold = {
  reason: 'channel_paused',
  code: 'CONNECTION_INACTIVE',
  message: 'This channel is paused in Launch. The campaign goes on by itself where it stopped once it is activated.',
};

export const authFailedHold = (providerMessage: string): CampaignHold => ({
  reason: 'auth_failed',
  code: 'TWILIO_AUTH_FAILED',
  message: `Twilio refused this connection's credentials (${providerMessage}). No recipient was failed: update the credentials in Settings and the campaign goes on where it stopped.`,
});

/** The innermost cause of an error (a database driver's own message, not the statement that failed). */
export const rootCause = (error: unknown): string => {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(inner);
};

export const dispatchFailedHold = (error: unknown): CampaignHold => ({
  reason: 'dispatch_failed',
  code: 'MESSAGE_SEND_FAILED',
  message: `Sending stopped after repeated failures (${rootCause(error)}). Resume the campaign to try again.`,
});

/** Queues the dispatch job of a campaign's round: one job per round, whoever asks. */
export const queueDispatchJob = (
  deps: Deps,
  campaign: Pick<CampaignRow, 'id' | 'subaccountId'>,
  round: number,
  runAt: Date,
  tx: Tx,
) =>
  enqueueJob(
    deps,
    {
      type: CAMPAIGN_DISPATCH_JOB,
      payload: { campaignId: campaign.id, round },
      subaccountId: campaign.subaccountId,
      runAt,
      maxAttempts: DISPATCH_ATTEMPTS,
      idempotencyKey: `campaign:${campaign.id}:${round}`,
    },
    tx,
  );

/**
 * Moves a campaign into its next dispatch round: scheduled when its start time is still ahead and it
 * has never sent, sending otherwise, without a hold; the round's job is written in the same transaction.
 */
export const scheduleDispatchRound = async (deps: Deps, tx: Tx, row: CampaignRow) => {
  const now = new Date();
  const later = !row.startedAt && row.scheduledFor !== null && row.scheduledFor.getTime() > now.getTime();
  const round = row.dispatchRound + 1;
  await tx
    .update(campaigns)
    .set({
      status: later ? 'scheduled' : 'sending',
      startedAt: row.startedAt ?? (later ? null : now),
      completedAt: null,
      holdReason: null,
      holdCode: null,
      holdMessage: null,
      dispatchRound: round,
      updatedAt: now,
    })
    .where(eq(campaigns.id, row.id));
  await queueDispatchJob(deps, row, round, later ? (row.scheduledFor as Date) : now, tx);
};

/** Pauses a sending campaign by itself, saying why; false when it was no longer sending. */
export const holdCampaign = async (deps: Deps, campaignId: string, hold: CampaignHold) => {
  const held = await deps.db
    .update(campaigns)
    .set({
      status: 'paused',
      holdReason: hold.reason,
      holdCode: hold.code,
      holdMessage: hold.message.slice(0, 500),
      updatedAt: new Date(),
    })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'sending')))
    .returning({ connectionId: campaigns.connectionId });
  for (const row of held) await deps.bus.publish(channelEvents(row.connectionId), { campaignId, kind: 'campaign' });
  return held.length > 0;
};

/** The campaigns held for `reason` whose cause is gone (the channel active again, its credentials live again). */
const heldWithoutCause = async (deps: Deps, reason: 'channel_paused' | 'auth_failed', connectionId?: string) => {
  const onConnection = connectionId ? sql`AND c.connection_id = ${connectionId}` : sql``;
  const gone =
    reason === 'channel_paused'
      ? sql`NOT EXISTS (SELECT 1 FROM ${connectionPauses} p WHERE p.connection_id = c.connection_id)`
      : sql`EXISTS (SELECT 1 FROM ${channelAccounts} a WHERE a.connection_id = c.connection_id AND a.status = 'live')`;
  return rowsOf<{ id: string }>(
    await deps.db.execute(sql`
      SELECT c.id FROM ${campaigns} c
      WHERE c.status = 'paused' AND c.hold_reason = ${reason} ${onConnection} AND ${gone}
      LIMIT 100`),
  );
};

/**
 * Resumes, where they stopped, the campaigns held for `reason` whose cause is gone (on one
 * connection, or all). A campaign resumed or changed meanwhile is left alone.
 */
export const resumeHeld = async (deps: Deps, reason: 'channel_paused' | 'auth_failed', connectionId?: string) => {
  let resumed = 0;
  for (const { id } of await heldWithoutCause(deps, reason, connectionId)) {
    const row = await deps.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
      if (locked?.status !== 'paused' || locked.holdReason !== reason) return null;
      await scheduleDispatchRound(deps, tx, locked);
      return locked;
    });
    if (!row) continue;
    resumed += 1;
    await deps.bus.publish(channelEvents(row.connectionId), { campaignId: id, kind: 'campaign' });
  }
  return resumed;
};
