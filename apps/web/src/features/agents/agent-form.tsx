import { AGENT_TYPE_LABELS, type TAgent, type TUpdateAgentRequest, ZUpdateAgentRequest } from '@switchboard/core';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { useAgentMutations, useModels } from './api';

type FormState = {
  name: string;
  type: TAgent['type'];
  model: string;
  systemPrompt: string;
  firstMessage: string;
  suggestedResponses: string;
  temperature: string;
  maxTokens: string;
  topP: string;
  frequencyPenalty: string;
  presencePenalty: string;
  stopSequences: string;
};

const toState = (agent: TAgent): FormState => ({
  name: agent.name,
  type: agent.type,
  model: `${agent.provider}::${agent.model}`,
  systemPrompt: agent.systemPrompt,
  firstMessage: agent.firstMessage,
  suggestedResponses: agent.suggestedResponses.join('\n'),
  temperature: String(agent.temperature),
  maxTokens: String(agent.maxTokens),
  topP: String(agent.topP),
  frequencyPenalty: String(agent.frequencyPenalty),
  presencePenalty: String(agent.presencePenalty),
  stopSequences: agent.stopSequences.join('\n'),
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
const num = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

const toBody = (state: FormState): TUpdateAgentRequest => {
  const [provider, ...rest] = state.model.split('::');
  return {
    name: state.name,
    type: state.type,
    provider: provider as TAgent['provider'],
    model: rest.join('::'),
    systemPrompt: state.systemPrompt,
    firstMessage: state.firstMessage,
    suggestedResponses: lines(state.suggestedResponses),
    temperature: num(state.temperature),
    maxTokens: num(state.maxTokens),
    topP: num(state.topP),
    frequencyPenalty: num(state.frequencyPenalty),
    presencePenalty: num(state.presencePenalty),
    stopSequences: lines(state.stopSequences),
  };
};

const NUMBER_FIELDS: { key: keyof FormState; label: string; min: number; max: number; step: number }[] = [
  { key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
  { key: 'maxTokens', label: 'Max tokens', min: 1, max: 128000, step: 1 },
  { key: 'topP', label: 'Top P', min: 0, max: 1, step: 0.05 },
  { key: 'frequencyPenalty', label: 'Frequency penalty', min: -2, max: 2, step: 0.1 },
  { key: 'presencePenalty', label: 'Presence penalty', min: -2, max: 2, step: 0.1 },
];

/** The agent's settings: prompt, model and sampling, with the field errors of the shared schema. */
export const AgentForm = ({ agent, canEdit }: { agent: TAgent; canEdit: boolean }) => {
  const [state, setState] = useState<FormState>(() => toState(agent));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const models = useModels();
  const { update } = useAgentMutations();

  useEffect(() => setState(toState(agent)), [agent]);

  const set = (key: keyof FormState) => (event: { target: { value: string } }) =>
    setState((current) => ({ ...current, [key]: event.target.value }));

  const options = models.data?.models ?? [];
  const currentValue = `${agent.provider}::${agent.model}`;
  const hasCurrent = options.some((option) => `${option.provider}::${option.model}` === currentValue);

  const save = () => {
    const body = toBody(state);
    const parsed = ZUpdateAgentRequest.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    update.mutate(
      { agentId: agent.id, body },
      {
        onSuccess: () => toast.success('Agent saved'),
        onError: (error) => {
          if (error instanceof ApiError && error.field) {
            setErrors({ [error.field.replace(/^body\./, '').split('.')[0] ?? 'form']: error.message });
          } else showErrorDialog(error);
        },
      },
    );
  };

  const field = (key: keyof FormState, label: string, control: React.ReactNode, hint?: string) => (
    <div>
      <Label htmlFor={`agent-${key}`}>{label}</Label>
      {control}
      {hint ? <p className="mt-1 text-xs text-muted">{hint}</p> : null}
      <FieldError id={`agent-${key}-error`}>{errors[key] ?? null}</FieldError>
    </div>
  );
  const aria = (key: string) => ({
    id: `agent-${key}`,
    'aria-invalid': Boolean(errors[key]),
    'aria-describedby': errors[key] ? `agent-${key}-error` : undefined,
    disabled: !canEdit,
  });

  return (
    <Card className="space-y-4">
      <h2 className="font-semibold">Settings</h2>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        noValidate
      >
        {field('name', 'Name', <Input {...aria('name')} value={state.name} onChange={set('name')} maxLength={120} />)}
        <div className="grid gap-4 sm:grid-cols-2">
          {field(
            'type',
            'Type',
            <Select {...aria('type')} value={state.type} onChange={set('type')}>
              {Object.entries(AGENT_TYPE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>,
          )}
          {field(
            'model',
            'Model',
            <Select {...aria('model')} value={state.model} onChange={set('model')}>
              {!hasCurrent ? <option value={currentValue}>{agent.model}</option> : null}
              {options.map((option) => (
                <option key={`${option.provider}::${option.model}`} value={`${option.provider}::${option.model}`}>
                  {option.label}
                </option>
              ))}
            </Select>,
            'Add provider keys in Settings to use OpenAI, OpenRouter, Anthropic or your own server.',
          )}
        </div>
        {field(
          'systemPrompt',
          'Instructions (system prompt)',
          <Textarea {...aria('systemPrompt')} value={state.systemPrompt} onChange={set('systemPrompt')} rows={8} />,
        )}
        {field(
          'firstMessage',
          'First message',
          <Input {...aria('firstMessage')} value={state.firstMessage} onChange={set('firstMessage')} />,
        )}
        {field(
          'suggestedResponses',
          'Suggested responses',
          <Textarea
            {...aria('suggestedResponses')}
            value={state.suggestedResponses}
            onChange={set('suggestedResponses')}
            rows={3}
          />,
          'One per line, up to 10.',
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {NUMBER_FIELDS.map((item) =>
            field(
              item.key,
              item.label,
              <Input
                {...aria(item.key)}
                type="number"
                inputMode="decimal"
                min={item.min}
                max={item.max}
                step={item.step}
                value={state[item.key]}
                onChange={set(item.key)}
              />,
              `Min ${item.min}, max ${item.max}`,
            ),
          )}
          {field(
            'stopSequences',
            'Stop sequences',
            <Textarea
              {...aria('stopSequences')}
              value={state.stopSequences}
              onChange={set('stopSequences')}
              rows={2}
            />,
            'One per line, up to 4.',
          )}
        </div>
        {canEdit ? (
          <div className="flex justify-end">
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save changes'}
            </Button>
          </div>
        ) : null}
      </form>
    </Card>
  );
};
