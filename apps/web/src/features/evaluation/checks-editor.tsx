import {
  CHECK_TYPE_LABELS,
  CHECK_WEIGHT_MAX,
  CHECKS_PER_QUESTION_MAX,
  describeWeightedCheck,
  type TQuestionCheck,
  type TQuestionCheckType,
  ZQuestionCheck,
} from '@switchboard/core';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';

/** What each check type asks for: the first input's label and, for some, a second one. */
const FIELDS: Record<
  TQuestionCheckType,
  { first?: string; second?: string; placeholder?: string; multiline?: boolean; hint?: string }
> = {
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
    hint: 'Compares words (term vectors).',
  },
  json_schema: {
    first: 'JSON schema',
    placeholder: '{"type": "object", "required": ["price"], "properties": {"price": {"type": "number"}}}',
    multiline: true,
    hint: 'The whole answer must be JSON valid against this schema.',
  },
  semantic_similarity: {
    first: 'Reference answer',
    second: 'Lowest similarity (0-1)',
    placeholder: 'The answer a good agent gives',
    hint: "Compares meaning with the agent's embedding model; without one, term vectors (the result says which ran).",
  },
  faithfulness: {
    hint: 'The judge model lists claims of the answer the retrieved excerpts do not support; offline, a lexical check (the result says which ran).',
  },
  retrieval_recall: {
    first: 'Expected sources (names or ids, comma-separated)',
    second: 'Lowest recall (0-1)',
    placeholder: 'pricing.pdf, https://example.com/faq',
    hint: 'Share of the expected sources among the excerpts the agent retrieved.',
  },
  answers_from_knowledge: {
    hint: 'No claim outside the retrieved excerpts, and declines when nothing relevant was retrieved.',
  },
};

/** The threshold as typed (a percentage) to the 0-1 share the question keeps; undefined when empty. */
export const parseThreshold = (text: string): number | undefined | 'invalid' => {
  if (!text.trim()) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value / 100 : 'invalid';
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
    case 'semantic_similarity':
      return { type, reference: first, min: second.trim() ? Number(second) : 0.8 };
    case 'faithfulness':
    case 'answers_from_knowledge':
      return { type };
    case 'retrieval_recall':
      return {
        type,
        expected: first
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
        min: second.trim() ? Number(second) : 1,
      };
    case 'json_schema': {
      try {
        return { type, schema: JSON.parse(first) };
      } catch {
        return { type, schema: 'invalid' };
      }
    }
  }
};

/** The checks of a question beside its success criteria: a list with removal and a small add form. */
export const ChecksEditor = ({
  checks,
  questionLabel,
  onChange,
  passThreshold,
  onThresholdChange,
}: {
  checks: TQuestionCheck[];
  questionLabel: string;
  onChange: (checks: TQuestionCheck[]) => void;
  /** Share (0-1) of the checks' weight that must pass; undefined: every check. */
  passThreshold?: number;
  onThresholdChange?: (threshold: number | undefined) => void;
}) => {
  const id = useId();
  const [type, setType] = useState<TQuestionCheckType>('contains');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [weight, setWeight] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [threshold, setThreshold] = useState(
    passThreshold === undefined ? '' : String(Math.round(passThreshold * 100)),
  );
  const [thresholdError, setThresholdError] = useState<string | null>(null);
  const fields = FIELDS[type];

  const saveThreshold = () => {
    const value = parseThreshold(threshold);
    if (value === 'invalid') {
      setThresholdError('Enter a percentage from 0 to 100, or leave it empty.');
      return;
    }
    setThresholdError(null);
    onThresholdChange?.(value);
  };

  const add = () => {
    const built = buildCheck(type, first, second) as Record<string, unknown>;
    if (type === 'json_schema' && built.schema === 'invalid') {
      setError('The schema is not valid JSON.');
      return;
    }
    const parsed = ZQuestionCheck.safeParse(weight.trim() ? { ...built, weight: Number(weight) } : built);
    if (!parsed.success) {
      setError(
        parsed.error.issues.some((issue) => issue.path[0] === 'weight')
          ? `A weight is a number from 0 to ${CHECK_WEIGHT_MAX}.`
          : 'Check the values of this check.',
      );
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
    setWeight('');
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
              <span className="min-w-0 break-words">{describeWeightedCheck(check)}</span>
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
              {fields.multiline ? (
                <Textarea
                  id={`${id}-first`}
                  value={first}
                  rows={4}
                  className="font-mono text-xs"
                  placeholder={fields.placeholder}
                  onChange={(event) => setFirst(event.target.value)}
                />
              ) : (
                <Input
                  id={`${id}-first`}
                  value={first}
                  placeholder={fields.placeholder}
                  onChange={(event) => setFirst(event.target.value)}
                />
              )}
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
          <div className="flex items-end gap-2">
            <div className="w-20">
              <Label htmlFor={`${id}-weight`}>Weight</Label>
              <Input
                id={`${id}-weight`}
                inputMode="decimal"
                value={weight}
                placeholder="1"
                onChange={(event) => setWeight(event.target.value)}
              />
            </div>
            <Button variant="secondary" size="sm" onClick={add} aria-describedby={error ? `${id}-error` : undefined}>
              <Plus size={14} aria-hidden="true" /> Add check
            </Button>
          </div>
          {fields.hint ? <p className="text-xs text-muted sm:col-span-4">{fields.hint}</p> : null}
          <FieldError id={`${id}-error`}>{error}</FieldError>
        </div>
      ) : null}
      {onThresholdChange && checks.length ? (
        <div className="mt-3 border-t border-border pt-2">
          <Label htmlFor={`${id}-threshold`}>
            Pass threshold (% of the checks' weight, empty: every check must pass)
          </Label>
          <div className="flex items-center gap-2">
            <Input
              id={`${id}-threshold`}
              className="w-24"
              inputMode="decimal"
              value={threshold}
              placeholder="All"
              aria-describedby={thresholdError ? `${id}-threshold-error` : undefined}
              onChange={(event) => setThreshold(event.target.value)}
              onBlur={saveThreshold}
            />
            <span className="text-xs text-muted">
              {passThreshold === undefined
                ? 'Every check must pass.'
                : `Passes when checks of at least ${Math.round(passThreshold * 100)}% of the weight pass.`}
            </span>
          </div>
          <FieldError id={`${id}-threshold-error`}>{thresholdError}</FieldError>
        </div>
      ) : null}
    </details>
  );
};
