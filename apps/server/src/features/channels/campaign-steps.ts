import {
  stepDelayMinutes,
  stepDelayOf,
  type TCampaignInput,
  type TCampaignSequence,
  type TCampaignStep,
  type TStepFigures,
  templateVariables,
} from '@switchboard/core';
import { asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { BUILT_IN_VARIABLES } from './campaign-render';
import { campaignSequences, campaignStepSends, campaignSteps } from './campaign-steps.schema';
import { campaignConversions, campaignLinks, campaignRecipients, channelMessages, contacts } from './schema';

/** A campaign's steps after its message: saved with the campaign, read by its dispatch and its report. */

export type StepRow = typeof campaignSteps.$inferSelect;
export interface Sequence {
  stopOnReply: boolean;
  stopOnGoal: boolean;
  steps: StepRow[];
}

const REPLY_BRANCH_NEEDS_NO_STOP =
  'With "Stop on reply" on, a recipient who replies leaves the sequence: turn it off to send a step only to those who replied.';

/** The steps a save leaves on the campaign: the ones given, or those it has when none are given. */
const stepsAfterSave = async (db: Db | Tx, campaignId: string | null, input: TCampaignInput) => {
  if (input.steps) return input.steps;
  if (!campaignId) return [];
  const sequence = await sequenceOf(db, campaignId);
  return (sequence?.steps ?? []).map(
    (row): TCampaignStep => ({ delay: stepDelayOf(row.delayMinutes), condition: row.condition, message: row.message }),
  );
};

/**
 * Refuses steps a sequence cannot run: a "replied" branch while replies end the sequence, or a
 * {{variable}} that is no contact field (the same rule as the campaign's message).
 */
export const checkSteps = async (
  db: Db | Tx,
  subaccountId: string,
  campaignId: string | null,
  input: TCampaignInput,
) => {
  const steps = await stepsAfterSave(db, campaignId, input);
  if (!steps.length) return;
  const stopOnReply =
    input.stopOnReply ?? (campaignId ? ((await sequenceOf(db, campaignId))?.stopOnReply ?? true) : true);
  const branch = steps.findIndex((step) => step.condition === 'replied');
  if (stopOnReply && branch >= 0)
    throw new AppError('VALIDATION_ERROR', REPLY_BRANCH_NEEDS_NO_STOP, { field: `steps.${branch}.condition` });
  const unknown = steps.flatMap((step, index) =>
    templateVariables(step.message)
      .filter((name) => !(BUILT_IN_VARIABLES as readonly string[]).includes(name))
      .map((name) => ({ name, index })),
  );
  if (!unknown.length) return;
  const known = new Set(
    rowsOf<{ key: string }>(
      await db.execute(
        sql`SELECT DISTINCT jsonb_object_keys(attributes) AS key FROM ${contacts} WHERE subaccount_id = ${subaccountId} LIMIT 200`,
      ),
    ).map((row) => row.key),
  );
  const missing = unknown.find((item) => !known.has(item.name));
  if (missing)
    throw new AppError(
      'VALIDATION_ERROR',
      `{{${missing.name}}} in step ${missing.index + 2} is not a contact field. Use {{first_name}}, {{name}}, {{phone}} or a column imported with the contacts.`,
      { field: `steps.${missing.index}.message` },
    );
};

/** Writes the campaign's steps and sequence settings as the save asks, inside the save's transaction. */
export const saveSteps = async (tx: Tx, campaignId: string, input: TCampaignInput) => {
  if (input.steps === undefined && input.stopOnReply === undefined && input.stopOnGoal === undefined) return;
  const current = await sequenceOf(tx, campaignId);
  const steps = input.steps ?? (current ? null : []);
  if (steps) {
    await tx.delete(campaignSteps).where(eq(campaignSteps.campaignId, campaignId));
    if (steps.length)
      await tx.insert(campaignSteps).values(
        steps.map((step, index) => ({
          campaignId,
          step: index + 2,
          delayMinutes: stepDelayMinutes(step.delay),
          condition: step.condition,
          message: step.message,
        })),
      );
  }
  if (steps && !steps.length) {
    await tx.delete(campaignSequences).where(eq(campaignSequences.campaignId, campaignId));
    return;
  }
  const settings = {
    stopOnReply: input.stopOnReply ?? current?.stopOnReply ?? true,
    stopOnGoal: input.stopOnGoal ?? current?.stopOnGoal ?? true,
  };
  await tx
    .insert(campaignSequences)
    .values({ campaignId, ...settings })
    .onConflictDoUpdate({ target: campaignSequences.campaignId, set: settings });
};

/** Copies a campaign's steps and settings to another (a clone). */
export const copySteps = async (tx: Tx, fromId: string, toId: string) => {
  const sequence = await sequenceOf(tx, fromId);
  if (!sequence) return;
  await tx
    .insert(campaignSequences)
    .values({ campaignId: toId, stopOnReply: sequence.stopOnReply, stopOnGoal: sequence.stopOnGoal });
  if (sequence.steps.length)
    await tx.insert(campaignSteps).values(sequence.steps.map((step) => ({ ...step, campaignId: toId })));
};

/** The campaign's sequence, or null when it is a campaign of one message. */
export const sequenceOf = async (db: Db | Tx, campaignId: string): Promise<Sequence | null> => {
  const [settings] = await db.select().from(campaignSequences).where(eq(campaignSequences.campaignId, campaignId));
  const steps = await db
    .select()
    .from(campaignSteps)
    .where(eq(campaignSteps.campaignId, campaignId))
    .orderBy(asc(campaignSteps.step));
  if (!steps.length)
    return settings ? { stopOnReply: settings.stopOnReply, stopOnGoal: settings.stopOnGoal, steps } : null;
  return { stopOnReply: settings?.stopOnReply ?? true, stopOnGoal: settings?.stopOnGoal ?? true, steps };
};

const EMPTY: TStepFigures = {
  waiting: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  replied: 0,
  converted: 0,
  left: 0,
  notPicked: 0,
  skipped: 0,
};

type FigureRow = { step: number } & Record<keyof TStepFigures, number>;

/** Step 1's figures: the campaign's recipients; a reply counts here when no later step had reached them yet. */
const firstStepFigures = (db: Db, campaignId: string) =>
  db.execute(sql`
    SELECT 1 AS step,
      count(*) FILTER (WHERE r.status IN ('queued', 'sending'))::int AS waiting,
      count(*) FILTER (WHERE r.sent_at IS NOT NULL)::int AS sent,
      count(*) FILTER (WHERE r.status = 'delivered')::int AS delivered,
      count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
      count(*) FILTER (WHERE r.replied_at IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ${campaignStepSends} s WHERE s.recipient_id = r.id AND s.sent_at <= r.replied_at))::int AS replied,
      0 AS not_picked,
      count(*) FILTER (WHERE r.status = 'skipped')::int AS skipped
    FROM ${campaignRecipients} r WHERE r.campaign_id = ${campaignId}`);

/** The later steps' figures, one row per step. */
const laterStepFigures = (db: Db, campaignId: string) =>
  db.execute(sql`
    SELECT s.step,
      count(*) FILTER (WHERE s.status IN ('queued', 'sending'))::int AS waiting,
      count(*) FILTER (WHERE s.sent_at IS NOT NULL)::int AS sent,
      count(*) FILTER (WHERE s.status = 'delivered' OR m.status = 'delivered')::int AS delivered,
      count(*) FILTER (WHERE s.status = 'failed' OR m.status IN ('failed', 'undelivered'))::int AS failed,
      count(*) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied,
      count(*) FILTER (WHERE s.skip_reason = 'CONDITION')::int AS not_picked,
      count(*) FILTER (WHERE s.status = 'skipped' AND s.skip_reason <> 'CONDITION' AND s.skip_reason NOT LIKE 'LEFT_%')::int AS skipped
    FROM ${campaignStepSends} s LEFT JOIN ${channelMessages} m ON m.id = s.message_id
    WHERE s.campaign_id = ${campaignId} GROUP BY s.step`);

/** Those who left while waiting for step n + 1 count as having left after step n. */
const leftFigures = (db: Db, campaignId: string) =>
  db.execute(sql`
    SELECT s.step - 1 AS step, count(*)::int AS left
    FROM ${campaignStepSends} s
    WHERE s.campaign_id = ${campaignId} AND s.status = 'skipped' AND s.skip_reason LIKE 'LEFT_%'
    GROUP BY s.step`);

/** A recipient's first conversion (a tracked link clicked, a conversion reported) counts for the last step sent before it. */
const convertedFigures = (db: Db, campaignId: string) =>
  db.execute(sql`
    WITH firsts AS (
      SELECT r.id, least(
        (SELECT min(l.first_clicked_at) FROM ${campaignLinks} l WHERE l.recipient_id = r.id),
        (SELECT min(v.created_at) FROM ${campaignConversions} v WHERE v.recipient_id = r.id)) AS at
      FROM ${campaignRecipients} r WHERE r.campaign_id = ${campaignId} AND r.sent_at IS NOT NULL
    ), sends AS (
      SELECT r.id AS recipient_id, 1 AS step, r.sent_at FROM ${campaignRecipients} r
        WHERE r.campaign_id = ${campaignId} AND r.sent_at IS NOT NULL
      UNION ALL
      SELECT s.recipient_id, s.step, s.sent_at FROM ${campaignStepSends} s
        WHERE s.campaign_id = ${campaignId} AND s.sent_at IS NOT NULL
    )
    SELECT step, count(*)::int AS converted FROM (
      SELECT (SELECT x.step FROM sends x WHERE x.recipient_id = f.id AND x.sent_at <= f.at
        ORDER BY x.sent_at DESC, x.step DESC LIMIT 1) AS step
      FROM firsts f WHERE f.at IS NOT NULL
    ) AS attributed WHERE step IS NOT NULL GROUP BY step`);

/** The sequence of a campaign with each step's figures, for its report; null without steps. */
export const sequenceReport = async (
  db: Db,
  campaign: { id: string; message: string; whatsappTemplate: { body: string } | null },
): Promise<TCampaignSequence | null> => {
  const sequence = await sequenceOf(db, campaign.id);
  if (!sequence?.steps.length) return null;
  const [first, later, left, converted] = await Promise.all([
    firstStepFigures(db, campaign.id),
    laterStepFigures(db, campaign.id),
    leftFigures(db, campaign.id),
    convertedFigures(db, campaign.id),
  ]);
  const byStep = new Map<number, TStepFigures>();
  for (const row of [
    ...rowsOf<FigureRow & { not_picked: number }>(first),
    ...rowsOf<FigureRow & { not_picked: number }>(later),
  ])
    byStep.set(Number(row.step), {
      ...EMPTY,
      waiting: row.waiting,
      sent: row.sent,
      delivered: row.delivered,
      failed: row.failed,
      replied: row.replied,
      notPicked: Number(row.not_picked),
      skipped: row.skipped,
    });
  const add = (step: number, field: 'left' | 'converted', value: number) => {
    const figures = byStep.get(step) ?? { ...EMPTY };
    figures[field] += value;
    byStep.set(step, figures);
  };
  for (const row of rowsOf<{ step: number; left: number }>(left)) add(Number(row.step), 'left', row.left);
  for (const row of rowsOf<{ step: number; converted: number }>(converted))
    add(Number(row.step), 'converted', row.converted);
  return {
    stopOnReply: sequence.stopOnReply,
    stopOnGoal: sequence.stopOnGoal,
    steps: [
      {
        step: 1,
        delay: null,
        condition: 'all',
        message: campaign.message || campaign.whatsappTemplate?.body || '',
        figures: byStep.get(1) ?? { ...EMPTY },
      },
      ...sequence.steps.map((row) => ({
        step: row.step,
        delay: stepDelayOf(row.delayMinutes),
        condition: row.condition,
        message: row.message,
        figures: byStep.get(row.step) ?? { ...EMPTY },
      })),
    ],
  };
};
