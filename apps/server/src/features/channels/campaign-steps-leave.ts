import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { type Sequence, sequenceOf } from './campaign-steps';
import { campaignStepSends } from './campaign-steps.schema';
import type { Channel } from './connections';
import { campaignConversions, campaignLinks, campaignRecipients, campaigns } from './schema';
import { suppressionSkipSql } from './suppressions';

/**
 * Leaving a sequence: a recipient who opted out, reached the goal (a tracked link clicked, a
 * conversion reported) or replied (with "Stop on reply") gets no later step. Their waiting step is
 * marked skipped with LEFT_OPTED_OUT, LEFT_GOAL or LEFT_REPLIED at once, and the same is checked
 * again when a step is claimed, so a leave that races a send is still honoured.
 */

const repliedSql = (recipientId: SQL) => sql`(
  EXISTS (SELECT 1 FROM ${campaignRecipients} r WHERE r.id = ${recipientId} AND r.replied_at IS NOT NULL)
  OR EXISTS (SELECT 1 FROM ${campaignStepSends} x WHERE x.recipient_id = ${recipientId} AND x.replied_at IS NOT NULL))`;

const goalSql = (recipientId: SQL) => sql`(
  EXISTS (SELECT 1 FROM ${campaignLinks} l WHERE l.recipient_id = ${recipientId} AND l.clicks > 0)
  OR EXISTS (SELECT 1 FROM ${campaignConversions} v WHERE v.recipient_id = ${recipientId}))`;

/** Whether each recipient replied (to any message of the campaign) and reached the goal. */
export const recipientStates = async (db: Db | Tx, recipientIds: string[]) => {
  const states = new Map<string, { replied: boolean; goal: boolean }>();
  if (!recipientIds.length) return states;
  const rows = rowsOf<{ id: string; replied: boolean; goal: boolean }>(
    await db.execute(sql`
      SELECT ids.id, ${repliedSql(sql`ids.id`)} AS replied, ${goalSql(sql`ids.id`)} AS goal
      FROM unnest(${sql.param([...new Set(recipientIds)])}::text[]) AS ids(id)`),
  );
  for (const row of rows) states.set(row.id, { replied: Boolean(row.replied), goal: Boolean(row.goal) });
  return states;
};

/**
 * Takes out of the sequence the waiting recipients who left it (all of the campaign's, or one
 * number's, or one recipient's). Without the channel, opt-outs are left to the claim to see.
 */
export const leaveSweep = async (
  db: Deps | { db: Db },
  channel: Channel | null,
  campaignId: string,
  sequence: Pick<Sequence, 'stopOnReply' | 'stopOnGoal'>,
  only: { phone?: string; recipientId?: string } = {},
) => {
  const optedOut = channel ? sql`${suppressionSkipSql(channel, sql`w.phone`)} = 'OPTED_OUT'` : sql`false`;
  const goal = sequence.stopOnGoal ? goalSql(sql`w.recipient_id`) : sql`false`;
  const replied = sequence.stopOnReply ? repliedSql(sql`w.recipient_id`) : sql`false`;
  const filter = only.phone
    ? sql`AND w.phone = ${only.phone}`
    : only.recipientId
      ? sql`AND w.recipient_id = ${only.recipientId}`
      : sql``;
  const left = rowsOf<{ id: string }>(
    await db.db.execute(sql`
      UPDATE ${campaignStepSends} AS t SET status = 'skipped', skip_reason = x.reason, updated_at = now()
      FROM (
        SELECT w.id, CASE WHEN ${optedOut} THEN 'LEFT_OPTED_OUT' WHEN ${goal} THEN 'LEFT_GOAL'
          WHEN ${replied} THEN 'LEFT_REPLIED' END AS reason
        FROM ${campaignStepSends} w
        WHERE w.campaign_id = ${campaignId} AND w.status = 'queued' ${filter}
      ) AS x
      WHERE t.id = x.id AND x.reason IS NOT NULL AND t.status = 'queued'
      RETURNING t.id`),
  );
  return left.length;
};

/** The sequences on a connection in which this number (or this recipient) is waiting for a step. */
const waitingIn = async (db: Db, where: SQL) =>
  rowsOf<{ campaign_id: string }>(
    await db.execute(sql`
      SELECT DISTINCT s.campaign_id FROM ${campaignStepSends} s JOIN ${campaigns} c ON c.id = s.campaign_id
      WHERE s.status = 'queued' AND ${where} LIMIT 50`),
  ).map((row) => row.campaign_id);

/**
 * An inbound reply or opt-out: counted on the latest later step sent to the number on this
 * connection (when no newer campaign message reached it), then the number leaves the sequences it
 * is waiting in as their settings say.
 */
export const attributeToSequence = async (
  deps: Deps,
  channel: Channel,
  phone: string,
  what: 'replied' | 'opted_out',
  /** How long after a send a reply still counts for it (the campaign's rule). */
  windowMs: number,
) => {
  const column = what === 'replied' ? sql`replied_at` : sql`opted_out_at`;
  await deps.db.execute(sql`
    UPDATE ${campaignStepSends} SET ${column} = now() WHERE id = (
      SELECT s.id FROM ${campaignStepSends} s JOIN ${campaigns} c ON c.id = s.campaign_id
      WHERE c.connection_id = ${channel.connection.id} AND s.phone = ${phone} AND s.sent_at IS NOT NULL
        AND s.sent_at > now() - make_interval(secs => ${windowMs / 1000})
        AND NOT EXISTS (SELECT 1 FROM ${campaignRecipients} r JOIN ${campaigns} rc ON rc.id = r.campaign_id
          WHERE rc.connection_id = ${channel.connection.id} AND r.phone = ${phone} AND r.sent_at > s.sent_at)
      ORDER BY s.sent_at DESC LIMIT 1) AND ${column} IS NULL`);
  for (const campaignId of await waitingIn(
    deps.db,
    sql`c.connection_id = ${channel.connection.id} AND s.phone = ${phone}`,
  )) {
    const sequence = await sequenceOf(deps.db, campaignId);
    if (sequence) await leaveSweep(deps, channel, campaignId, sequence, { phone });
  }
};

/** A recipient reached the goal (a click, a reported conversion): they leave the sequence where it says so. */
export const leaveOnGoal = async (deps: Deps, campaignId: string, recipientId: string) => {
  const sequence = await sequenceOf(deps.db, campaignId);
  if (sequence?.stopOnGoal) await leaveSweep(deps, null, campaignId, sequence, { recipientId });
};

/** A tracked link's recipient and campaign, for the goal. */
export const leaveOnClick = async (deps: Deps, code: string) => {
  const [link] = rowsOf<{ campaign_id: string; recipient_id: string }>(
    await deps.db.execute(
      sql`SELECT campaign_id, recipient_id FROM ${campaignLinks} WHERE code = ${code} AND clicks > 0 LIMIT 1`,
    ),
  );
  if (link) await leaveOnGoal(deps, link.campaign_id, link.recipient_id);
};
