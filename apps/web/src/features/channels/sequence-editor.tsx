import {
  SEQUENCE_MAX_STEPS,
  STEP_DELAY_UNITS,
  type TCampaign,
  type TCampaignStep,
  type TStepCondition,
} from '@switchboard/core';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';

export const CONDITION_LABELS: Record<TStepCondition, string> = {
  all: 'Everyone still in the sequence',
  replied: 'Only those who replied',
  not_replied: 'Only those who did not reply',
};

export const UNIT_LABELS: Record<(typeof STEP_DELAY_UNITS)[number], string> = {
  minutes: 'minutes',
  hours: 'hours',
  days: 'days',
};

export interface SequenceDraft {
  steps: {
    delay: { amount: string; unit: (typeof STEP_DELAY_UNITS)[number] };
    condition: TStepCondition;
    message: string;
  }[];
  stopOnReply: boolean;
  stopOnGoal: boolean;
}

/** The editor's state from a saved campaign (its steps after the first message). */
export const sequenceDraftOf = (campaign: TCampaign | null): SequenceDraft => ({
  steps: (campaign?.sequence?.steps ?? [])
    .filter((step) => step.step > 1)
    .map((step) => ({
      delay: { amount: String(step.delay?.amount ?? 1), unit: step.delay?.unit ?? 'days' },
      condition: step.condition,
      message: step.message,
    })),
  stopOnReply: campaign?.sequence?.stopOnReply ?? true,
  stopOnGoal: campaign?.sequence?.stopOnGoal ?? true,
});

/** The payload's part of a sequence: the server checks it with the same schema (ZCampaignSteps). */
export const sequencePayload = (draft: SequenceDraft) => ({
  steps: draft.steps.map(
    (step): TCampaignStep => ({
      delay: { amount: Number(step.delay.amount), unit: step.delay.unit },
      condition: step.condition,
      message: step.message,
    }),
  ),
  stopOnReply: draft.stopOnReply,
  stopOnGoal: draft.stopOnGoal,
});

/**
 * "Add a step": later steps of the campaign, each with its delay after the step before, who gets
 * it and its message; and what takes a recipient out of the sequence.
 */
export const SequenceEditor = ({
  draft,
  onChange,
  error,
}: {
  draft: SequenceDraft;
  onChange: (draft: SequenceDraft) => void;
  /** The server's 422, its field without the `body.` prefix. */
  error: { field?: string; message: string } | null;
}) => {
  const errorFor = (...fields: string[]) =>
    error && fields.some((f) => error.field?.startsWith(f)) ? error.message : null;
  const update = (index: number, change: Partial<SequenceDraft['steps'][number]>) =>
    onChange({ ...draft, steps: draft.steps.map((step, i) => (i === index ? { ...step, ...change } : step)) });
  const full = draft.steps.length >= SEQUENCE_MAX_STEPS - 1;
  return (
    <fieldset className="space-y-3" aria-describedby="sequence-help">
      <legend className="text-sm font-medium">Follow-up steps</legend>
      <p id="sequence-help" className="text-xs text-muted">
        Step 1 is the message above. Each step waits its delay after the step before, in the contact’s quiet hours like
        the first. Up to {SEQUENCE_MAX_STEPS} steps.
      </p>
      {draft.steps.length ? (
        <ol className="space-y-3" aria-label="Follow-up steps">
          {draft.steps.map((step, index) => {
            const n = index + 2;
            const prefix = `steps.${index}.`;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id until saved, and their order is their identity
              <li key={index} className="rounded-lg border border-border p-3">
                <div className="flex items-center gap-2">
                  <h3 className="flex-1 text-sm font-semibold">Step {n}</h3>
                  <Button
                    type="button"
                    size="sm"
                    variant="secondary"
                    aria-label={`Remove step ${n}`}
                    onClick={() => onChange({ ...draft, steps: draft.steps.filter((_, i) => i !== index) })}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden /> Remove
                  </Button>
                </div>
                <div className="mt-2 grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.4fr)]">
                  <div>
                    <Label htmlFor={`step-${n}-delay`}>Wait</Label>
                    <Input
                      id={`step-${n}-delay`}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      value={step.delay.amount}
                      onChange={(e) => update(index, { delay: { ...step.delay, amount: e.target.value } })}
                    />
                  </div>
                  <div>
                    <Label htmlFor={`step-${n}-unit`}>Unit</Label>
                    <Select
                      id={`step-${n}-unit`}
                      value={step.delay.unit}
                      onChange={(e) =>
                        update(index, {
                          delay: {
                            ...step.delay,
                            unit: e.target.value as SequenceDraft['steps'][number]['delay']['unit'],
                          },
                        })
                      }
                    >
                      {STEP_DELAY_UNITS.map((unit) => (
                        <option key={unit} value={unit}>
                          {UNIT_LABELS[unit]} after step {n - 1}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <div>
                    <Label htmlFor={`step-${n}-condition`}>Send to</Label>
                    <Select
                      id={`step-${n}-condition`}
                      value={step.condition}
                      onChange={(e) => update(index, { condition: e.target.value as TStepCondition })}
                    >
                      {(Object.keys(CONDITION_LABELS) as TStepCondition[]).map((condition) => (
                        <option key={condition} value={condition}>
                          {CONDITION_LABELS[condition]}
                        </option>
                      ))}
                    </Select>
                  </div>
                </div>
                <FieldError>{errorFor(`${prefix}delay`, `${prefix}condition`)}</FieldError>
                <div className="mt-2">
                  <Label htmlFor={`step-${n}-message`}>Message of step {n}</Label>
                  <Textarea
                    id={`step-${n}-message`}
                    value={step.message}
                    maxLength={1600}
                    onChange={(e) => update(index, { message: e.target.value })}
                    placeholder="Hi {{first_name}}, just checking in…"
                  />
                  <FieldError>{errorFor(`${prefix}message`)}</FieldError>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      <FieldError>{error?.field === 'steps' || error?.field === 'stopOnReply' ? error.message : null}</FieldError>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        disabled={full}
        onClick={() =>
          onChange({
            ...draft,
            steps: [...draft.steps, { delay: { amount: '2', unit: 'days' }, condition: 'all', message: '' }],
          })
        }
      >
        <Plus className="h-4 w-4" aria-hidden /> Add a step
      </Button>
      {draft.steps.length ? (
        <div className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={draft.stopOnReply}
              onChange={(e) => onChange({ ...draft, stopOnReply: e.target.checked })}
            />
            Stop on reply
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={draft.stopOnGoal}
              onChange={(e) => onChange({ ...draft, stopOnGoal: e.target.checked })}
            />
            Stop when the goal is reached (a link clicked or a conversion reported)
          </label>
        </div>
      ) : null}
      <p className="text-xs text-muted">An opt-out (STOP) always ends the sequence for that contact.</p>
    </fieldset>
  );
};
