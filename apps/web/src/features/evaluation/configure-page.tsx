import {
  DEFAULT_EVALUATION_SETTINGS,
  EVALUATION_STORAGE_KEYS,
  type TEvaluationSettings,
  type TEvaluationType,
} from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { storage } from '../../lib/storage';
import { useAgents, useTestingModels } from './api';

const NUMBER_FIELDS: { key: keyof TEvaluationSettings; label: string; min: number; max: number; step: number }[] = [
  { key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
  { key: 'maxTokens', label: 'Max tokens', min: 1, max: 128000, step: 1 },
  { key: 'topP', label: 'Top P', min: 0, max: 1, step: 0.05 },
  { key: 'frequencyPenalty', label: 'Frequency penalty', min: -2, max: 2, step: 0.1 },
  { key: 'presencePenalty', label: 'Presence penalty', min: -2, max: 2, step: 0.1 },
];

/**
 * Step 1 of a new evaluation: what is tested. Chat completion tests a model with a prompt (or an
 * agent); the assistants type tests one of the sub-account's agents. Kept in evaluation:settings.
 */
export const ConfigurePage = ({ type }: { type: TEvaluationType }) => {
  const navigate = useNavigate();
  const agents = useAgents();
  const models = useTestingModels();
  const [settings, setSettings] = useState<TEvaluationSettings>(() => ({
    ...DEFAULT_EVALUATION_SETTINGS,
    ...storage.get<Partial<TEvaluationSettings>>(EVALUATION_STORAGE_KEYS.settings, {}),
    evaluation_type: type,
  }));
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const patch = (next: Partial<TEvaluationSettings>) => setSettings((previous) => ({ ...previous, ...next }));
  const assistants = type === 'openai-assistants';

  const next = (event: FormEvent) => {
    event.preventDefault();
    if (assistants && !settings.assistant_id) {
      setError({ field: 'agent', message: 'Choose the agent to test' });
      return;
    }
    if (!assistants && !settings.assistant_id && !settings.model) {
      setError({ field: 'model', message: 'Choose the model to test' });
      return;
    }
    if (!storage.set(EVALUATION_STORAGE_KEYS.settings, settings)) return;
    navigate(`/new-evaluation/${assistants ? 'openai-assistants' : 'openai-chatcompletion'}/test-settings`);
  };

  return (
    <form className="mx-auto max-w-3xl space-y-5" onSubmit={next} noValidate>
      <div>
        <h1 className="text-2xl font-semibold">{assistants ? 'Test an agent' : 'Test a prompt'}</h1>
        <p className="mt-1 text-sm text-muted">
          {assistants
            ? 'Pick the agent the simulated user will talk to.'
            : 'Pick the model and prompt under test, or one of your agents.'}
        </p>
      </div>
      <Card className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Label htmlFor="evaluation-name">Evaluation name</Label>
          <Input
            id="evaluation-name"
            value={settings.evaluationName}
            maxLength={200}
            placeholder="e.g. Solar agent before launch"
            onChange={(event) => patch({ evaluationName: event.target.value })}
          />
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor="agent-under-test">Agent</Label>
          <Select
            id="agent-under-test"
            value={settings.assistant_id}
            onChange={(event) => patch({ assistant_id: event.target.value })}
            aria-invalid={error?.field === 'agent'}
            aria-describedby={error?.field === 'agent' ? 'configure-error' : undefined}
          >
            <option value="">{assistants ? 'Select an agent' : 'None: test the prompt below'}</option>
            {agents.data?.agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </Select>
        </div>
        {!assistants && !settings.assistant_id ? (
          <>
            <div className="sm:col-span-2">
              <Label htmlFor="model-under-test">Model</Label>
              <Select
                id="model-under-test"
                value={settings.model}
                onChange={(event) => patch({ model: event.target.value })}
                aria-invalid={error?.field === 'model'}
                aria-describedby={error?.field === 'model' ? 'configure-error' : undefined}
              >
                <option value="">Select a model</option>
                {models.data?.models.map((model) => (
                  <option key={model.value} value={model.value}>
                    {model.label}
                  </option>
                ))}
              </Select>
            </div>
            <div className="sm:col-span-2">
              <Label htmlFor="prompt-under-test">Prompt</Label>
              <Textarea
                id="prompt-under-test"
                value={settings.prompt}
                maxLength={50000}
                placeholder="You are a helpful assistant for a solar installer..."
                onChange={(event) => patch({ prompt: event.target.value })}
              />
            </div>
            {NUMBER_FIELDS.map((field) => (
              <div key={field.key}>
                <Label htmlFor={`setting-${field.key}`}>{field.label}</Label>
                <Input
                  id={`setting-${field.key}`}
                  type="number"
                  min={field.min}
                  max={field.max}
                  step={field.step}
                  value={String(settings[field.key])}
                  onChange={(event) => {
                    const value = Number(event.target.value);
                    if (Number.isFinite(value)) patch({ [field.key]: Math.min(field.max, Math.max(field.min, value)) });
                  }}
                />
              </div>
            ))}
          </>
        ) : null}
        <div className="sm:col-span-2">
          <FieldError id="configure-error">{error?.message}</FieldError>
        </div>
      </Card>
      <div className="flex justify-between">
        <Button variant="secondary" onClick={() => navigate('/new-evaluation')}>
          Back
        </Button>
        <Button type="submit">Next</Button>
      </div>
    </form>
  );
};
