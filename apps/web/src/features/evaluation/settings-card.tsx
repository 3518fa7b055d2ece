import {
  EVALUATION_MESSAGES,
  FOLLOW_UP_TURNS_MAX,
  FOLLOW_UP_TURNS_MIN,
  HALLUCINATION_CHOICES,
  type TTemplate,
} from '@switchboard/core';
import { Card } from '../../components/ui/card';
import { Label, Select, Textarea } from '../../components/ui/input';
import { Stepper } from './stepper';
import type { TestSettingsValues } from './use-test-settings';

/**
 * Template picker, Testing Model picker, initial message and user description; then how the
 * conversation should go, the judge's hallucination check and the follow-up turn limit.
 */
export const SettingsCard = ({
  values,
  templates,
  models,
  onTemplate,
  onChange,
}: {
  values: TestSettingsValues;
  templates: TTemplate[];
  models: { value: string; label: string }[];
  onTemplate: (id: string) => void;
  onChange: <K extends keyof TestSettingsValues>(key: K, value: TestSettingsValues[K]) => void;
}) => (
  <Card className="grid gap-4 sm:grid-cols-2">
    <div>
      <Label htmlFor="template-picker">Template</Label>
      <Select id="template-picker" value={values.template} onChange={(event) => onTemplate(event.target.value)}>
        <option value="create">Create new template</option>
        <option value="">No Template</option>
        {templates.map((template) => (
          <option key={template._id} value={template._id}>
            {template.templateName}
          </option>
        ))}
      </Select>
    </div>
    <div>
      <Label htmlFor="testing-model">Testing Model</Label>
      <Select
        id="testing-model"
        value={values.testingModel}
        onChange={(event) => onChange('testingModel', event.target.value)}
        aria-describedby={!values.testingModel ? 'testing-model-hint' : undefined}
      >
        <option value="">Select a testing model</option>
        {values.testingModel && !models.some((model) => model.value === values.testingModel) ? (
          <option value={values.testingModel}>{values.testingModel}</option>
        ) : null}
        {models.map((model) => (
          <option key={model.value} value={model.value}>
            {model.label}
          </option>
        ))}
      </Select>
      {!values.testingModel ? (
        <p id="testing-model-hint" className="mt-1 text-xs text-muted">
          {EVALUATION_MESSAGES.selectTestingModel}
        </p>
      ) : null}
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="initial-message">Initial message</Label>
      <Textarea
        id="initial-message"
        value={values.initialMessage}
        maxLength={4000}
        onChange={(event) => onChange('initialMessage', event.target.value)}
      />
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="user-description">User description</Label>
      <Textarea
        id="user-description"
        value={values.shortuserDescription}
        maxLength={4000}
        onChange={(event) => onChange('shortuserDescription', event.target.value)}
      />
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="conversation-flow">Conversation flow</Label>
      <Textarea
        id="conversation-flow"
        value={values.conversationFlow}
        maxLength={4000}
        placeholder="How the simulated user leads up to the questions, e.g. asks about prices first, then about installation dates."
        onChange={(event) => onChange('conversationFlow', event.target.value)}
      />
    </div>
    <div>
      <Label htmlFor="hallucination-choice">Hallucination check</Label>
      <Select
        id="hallucination-choice"
        value={values.hallucinationChoice ?? ''}
        onChange={(event) => onChange('hallucinationChoice', event.target.value || null)}
      >
        {HALLUCINATION_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </Select>
    </div>
    <div className="flex items-end">
      <Stepper
        label="Follow-up turns"
        value={values.settings.followUpTurns ?? 0}
        min={FOLLOW_UP_TURNS_MIN}
        max={FOLLOW_UP_TURNS_MAX}
        onChange={(followUpTurns) => onChange('settings', { ...values.settings, followUpTurns })}
      />
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="hallucination-instruction">Hallucination instruction</Label>
      <Textarea
        id="hallucination-instruction"
        value={values.hallucinationInstruction}
        maxLength={4000}
        placeholder="What else the judge checks, e.g. prices must come from the price list."
        onChange={(event) => onChange('hallucinationInstruction', event.target.value)}
      />
    </div>
  </Card>
);
