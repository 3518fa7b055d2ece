import {
  CHECK_TYPE_LABELS,
  CHECKS_PER_QUESTION_MAX,
  describeCheck,
  type TQuestionCheck,
  type TQuestionCheckType,
  ZQuestionCheck,
} from '@switchboard/core';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Select } from '../../components/ui/input';

/** What each check type asks for: the first input's label and, for some, a second one. */
const FIELDS: Record<TQuestionCheckType, { first?: string; second?: string; placeholder?: string }> = {
  contains: { first: 'Text', placeholder: 'e.g. 6,000 pounds' },
  not_contains: { first: 'Text', placeholder: 'e.g. guaranteed' },
  regex: { first: 'Pattern', placeholder: 'e.g. \\d+ kW' },
  json_shape: { first: 'Keys and types', placeholder: 'price:number, currency:string' },
  max_latency: { first: 'Milliseconds', placeholder: '3000' },
  max_cost: { first: 'Credits', placeholder: '0.5' },
  tool_called: { first: 'Tool name', second: 'Arguments (JSON, optional)', placeholder: 'book_site_visit' },
  tool_not_called: { first: 'Tool name', second: 'Arguments (JSON, optional)', placeholder: 'issue_refund' },
  refusal: {},
  similarity: {
    first: 'Reference answer',
    second: 'Lowest similarity (0-1)',
    placeholder: 'The answer a good agent gives',
  },
};

/** Builds a check from the form's text inputs; the zod schema of core says whether it is valid. */
const buildCheck = (type: TQuestionCheckType, first: string, second: string): unknown => {
  switch (type) {
    case 'contains':
    case 'not_contains':
      return { type, value: first };
    case 'regex':
      return { type, pattern: first };
    case 'json_shape':
      return {
        type,
        shape: Object.fromEntries(
          first
            .split(',')
            .map((pair) => pair.split(':').map((part) => part.trim()))
            .filter(([key]) => key)
            .map(([key, kind]) => [key, kind || 'any']),
        ),
      };
    case 'max_latency':
      return { type, ms: Number(first) };
    case 'max_cost':
      return { type, credits: Number(first) };
    case 'tool_called':
    case 'tool_not_called': {
      if (!second.trim()) return { type, tool: first.trim() };
      try {
        return { type, tool: first.trim(), args: JSON.parse(second) };
      } catch {
        return { type, tool: first.trim(), args: 'invalid' };
      }
    }
    case 'refusal':
      return { type };
    case 'similarity':
      return { type, reference: first, min: second.trim() ? Number(second) : 0.5 };
  }
};

/** The checks of a question beside its success criteria: a list with removal and a small add form. */
export const ChecksEditor = ({
  checks,
  questionLabel,
  onChange,
}: {
  checks: TQuestionCheck[];
  questionLabel: string;
  onChange: (checks: TQuestionCheck[]) => void;
}) => {
  const id = useId();
  const [type, setType] = useState<TQuestionCheckType>('contains');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fields = FIELDS[type];

  const add = () => {
    const parsed = ZQuestionCheck.safeParse(buildCheck(type, first, second));
    if (!parsed.success) {
      setError('Check the values of this check.');
      return;
    }
    if (parsed.data.type === 'regex') {
      try {
        new RegExp(parsed.data.pattern, 'u');
      } catch {
        setError('The regex is not valid');
        return;
      }
    }
    onChange([...checks, parsed.data]);
    setFirst('');
    setSecond('');
    setError(null);
  };

  return (
    <details className="rounded-md border border-border p-2 text-sm">
      <summary className="cursor-pointer text-xs font-medium text-muted">
        Checks ({checks.length}) <span className="sr-only">of {questionLabel}</span>
      </summary>
      {checks.length ? (
        <ul className="mt-2 space-y-1" aria-label={`Checks of ${questionLabel}`}>
          {checks.map((check, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: checks have no id; order is their identity
              key={index}
              className="flex items-center justify-between gap-2"
            >
              <span className="min-w-0 break-words">{describeCheck(check)}</span>
              <Button
                variant="ghost"
                size="sm"
                className="h-7 px-2"
                aria-label={`Remove check ${index + 1} of ${questionLabel}`}
                onClick={() => onChange(checks.filter((_, i) => i !== index))}
              >
                <Trash2 size={14} aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {checks.length < CHECKS_PER_QUESTION_MAX ? (
        <div className="mt-2 grid gap-2 sm:grid-cols-[10rem_1fr_1fr_auto] sm:items-end">
          <div>
            <Label htmlFor={`${id}-type`}>Check</Label>
            <Select
              id={`${id}-type`}
              value={type}
              onChange={(event) => {
                setType(event.target.value as TQuestionCheckType);
                setError(null);
              }}
            >
              {(Object.keys(CHECK_TYPE_LABELS) as TQuestionCheckType[]).map((key) => (
                <option key={key} value={key}>
                  {CHECK_TYPE_LABELS[key]}
                </option>
              ))}
            </Select>
          </div>
          {fields.first ? (
            <div>
              <Label htmlFor={`${id}-first`}>{fields.first}</Label>
              <Input
                id={`${id}-first`}
                value={first}
                placeholder={fields.placeholder}
                onChange={(event) => setFirst(event.target.value)}
              />
            </div>
          ) : (
            <p className="text-xs text-muted sm:col-span-2">Passes when the agent declines the request.</p>
          )}
          {fields.second ? (
            <div>
              <Label htmlFor={`${id}-second`}>{fields.second}</Label>
              <Input id={`${id}-second`} value={second} onChange={(event) => setSecond(event.target.value)} />
            </div>
          ) : fields.first ? (
            <span />
          ) : null}
          <Button variant="secondary" size="sm" onClick={add} aria-describedby={error ? `${id}-error` : undefined}>
            <Plus size={14} aria-hidden="true" /> Add check
          </Button>
          <FieldError id={`${id}-error`}>{error}</FieldError>
        </div>
      ) : null}
    </details>
  );
};
