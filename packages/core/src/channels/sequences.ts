import { z } from 'zod';

/**
 * A campaign's sequence: step 1 is the campaign's own message; each later step waits a delay after
 * the step before, then sends its message to those still in the sequence whom its condition picks.
 * A recipient leaves the sequence on a reply (when "Stop on reply" is on), an opt-out or the goal.
 */

/** Steps of a sequence, the campaign's own message included. */
export const SEQUENCE_MAX_STEPS = 10;
export const STEP_DELAY_MIN_MINUTES = 1;
/** 90 days. */
export const STEP_DELAY_MAX_MINUTES = 90 * 24 * 60;

export const STEP_DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
export const STEP_UNIT_MINUTES: Record<(typeof STEP_DELAY_UNITS)[number], number> = {
  minutes: 1,
  hours: 60,
  days: 1440,
};

/** Who gets a step: everyone still in the sequence, only those who replied, only those who did not. */
export const STEP_CONDITIONS = ['all', 'replied', 'not_replied'] as const;
export const ZStepCondition = z.enum(STEP_CONDITIONS);
export type TStepCondition = z.infer<typeof ZStepCondition>;

export const ZStepDelay = z
  .object({
    amount: z
      .number({ error: 'Enter the delay as a whole number' })
      .int('Enter the delay as a whole number')
      .min(1, 'The delay is at least 1 minute'),
    unit: z.enum(STEP_DELAY_UNITS, { error: 'The delay is in minutes, hours or days' }),
  })
  .refine((delay) => delay.amount * STEP_UNIT_MINUTES[delay.unit] <= STEP_DELAY_MAX_MINUTES, {
    message: 'The delay is at most 90 days',
    path: ['amount'],
  });
export type TStepDelay = z.infer<typeof ZStepDelay>;

/** A step after the first: its delay after the step before, who gets it, and its message. */
export const ZCampaignStep = z.object({
  delay: ZStepDelay,
  condition: ZStepCondition.default('all'),
  /** The text with {{variables}}, as the campaign's message. */
  message: z.string().trim().min(1, 'Write the message of this step').max(1600),
});
export type TCampaignStep = z.infer<typeof ZCampaignStep>;
export type TCampaignStepInput = z.input<typeof ZCampaignStep>;

/** The steps after the campaign's message (step 2 onwards); at most 9, so 10 in all. */
export const ZCampaignSteps = z
  .array(ZCampaignStep)
  .max(SEQUENCE_MAX_STEPS - 1, `A sequence has at most ${SEQUENCE_MAX_STEPS} steps`);

export const stepDelayMinutes = (delay: TStepDelay) => delay.amount * STEP_UNIT_MINUTES[delay.unit];

/** A delay in minutes as the largest whole unit that expresses it. */
export const stepDelayOf = (minutes: number): TStepDelay =>
  minutes % 1440 === 0
    ? { amount: minutes / 1440, unit: 'days' }
    : minutes % 60 === 0
      ? { amount: minutes / 60, unit: 'hours' }
      : { amount: minutes, unit: 'minutes' };

/** What one step did. */
export const ZStepFigures = z.object({
  /** Recipients the step is waiting to send to (its time has not come, or quiet hours). */
  waiting: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  /** Replied to this step's message (before the next step reached them). */
  replied: z.number(),
  /** Reached the goal (a tracked link clicked, or a conversion reported) after this step. */
  converted: z.number(),
  /** Left the sequence after this step: replied (with "Stop on reply"), opted out or reached the goal. */
  left: z.number(),
  /** Not sent because the step's condition did not pick them (they stay in the sequence). */
  notPicked: z.number(),
  /** Not sent for another reason: opted out before, contact deleted, a missing value, no WhatsApp window. */
  skipped: z.number(),
});
export type TStepFigures = z.infer<typeof ZStepFigures>;

export const ZSequenceStepReport = z.object({
  step: z.number(),
  /** Null for step 1 (the campaign's message, sent when the campaign starts). */
  delay: ZStepDelay.nullable(),
  condition: ZStepCondition,
  message: z.string(),
  figures: ZStepFigures,
});
export type TSequenceStepReport = z.infer<typeof ZSequenceStepReport>;

/** A campaign's sequence on its report: null for a campaign of one message. */
export const ZCampaignSequence = z.object({
  stopOnReply: z.boolean(),
  stopOnGoal: z.boolean(),
  steps: z.array(ZSequenceStepReport),
});
export type TCampaignSequence = z.infer<typeof ZCampaignSequence>;
