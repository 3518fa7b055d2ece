import {
  CUSTOM_CATEGORY_COUNT_CAP,
  EVALUATION_MESSAGES,
  GENERATION_COUNT_MAX,
  RED_TEAM_BY_ID,
  RED_TEAM_CATEGORIES,
  RED_TEAM_COUNT_MAX,
  type TCustomPrompt,
  type TGeneratedQuestion,
} from '@switchboard/core';
import { AlertTriangle, Check, Plus, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label, Select } from '../../components/ui/input';

export interface GenerationCounts {
  industry: number;
  angry: number;
  compliance: number;
  promptHacking: number;
}

const COUNT_FIELDS: { key: keyof GenerationCounts; label: string }[] = [
  { key: 'industry', label: 'Industry questions' },
  { key: 'angry', label: 'Angry customer questions' },
  { key: 'compliance', label: 'Compliance questions' },
  { key: 'promptHacking', label: 'Prompt hacking questions' },
];

const COUNT_OPTIONS = Array.from({ length: GENERATION_COUNT_MAX + 1 }, (_, i) => i);

export interface RedTeamSelection {
  ids: string[];
  count: number;
}

/** The red-team library: categories to tick (each says what it probes) and how many variations each. */
const RedTeamPicker = ({
  value,
  onChange,
}: {
  value: RedTeamSelection;
  onChange: (value: RedTeamSelection) => void;
}) => (
  <details className="rounded-lg border border-border p-3">
    <summary className="cursor-pointer text-sm font-medium">
      Red-team library ({value.ids.length} of {RED_TEAM_CATEGORIES.length} categories)
    </summary>
    <div className="mt-3 space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-40">
          <Label htmlFor="red-team-count">Variations per category</Label>
          <Select
            id="red-team-count"
            value={value.count}
            onChange={(event) => onChange({ ...value, count: Number(event.target.value) })}
          >
            {Array.from({ length: RED_TEAM_COUNT_MAX }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            onChange({
              ...value,
              ids: value.ids.length === RED_TEAM_CATEGORIES.length ? [] : RED_TEAM_CATEGORIES.map((item) => item.id),
            })
          }
        >
          {value.ids.length === RED_TEAM_CATEGORIES.length ? 'Clear all' : 'Select all'}
        </Button>
      </div>
      <ul className="max-h-64 space-y-2 overflow-y-auto pr-1">
        {RED_TEAM_CATEGORIES.map((category) => (
          <li key={category.id} className="flex items-start gap-2">
            <input
              id={`red-team-${category.id}`}
              type="checkbox"
              className="mt-1 h-4 w-4 accent-[var(--primary,#43c0b8)]"
              checked={value.ids.includes(category.id)}
              aria-describedby={`red-team-${category.id}-probes`}
              onChange={(event) =>
                onChange({
                  ...value,
                  ids: event.target.checked
                    ? [...value.ids, category.id]
                    : value.ids.filter((id) => id !== category.id),
                })
              }
            />
            <label htmlFor={`red-team-${category.id}`} className="text-sm">
              <span className="font-medium">{category.label}</span>
              {category.whenToAsk ? <span className="text-muted"> · multi-turn</span> : null}
              <span id={`red-team-${category.id}-probes`} className="block text-xs text-muted">
                {category.probes}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  </details>
);

/** Generate Questions with AI: counts per category, custom categories, the own-key warning. */
export const GenerateQuestionsDialog = ({
  open,
  busy,
  onOpenChange,
  onGenerate,
}: {
  open: boolean;
  busy: boolean;
  onOpenChange: (open: boolean) => void;
  onGenerate: (counts: GenerationCounts, customPrompts: TCustomPrompt[], redTeam: RedTeamSelection) => void;
}) => {
  const [counts, setCounts] = useState<GenerationCounts>({ industry: 3, angry: 2, compliance: 2, promptHacking: 2 });
  const [custom, setCustom] = useState<TCustomPrompt[]>([]);
  const [redTeam, setRedTeam] = useState<RedTeamSelection>({ ids: [], count: 2 });
  const total =
    Object.values(counts).reduce((sum, value) => sum + value, 0) +
    custom.reduce((sum, item) => sum + (Number.parseInt(item.count, 10) || 0), 0) +
    redTeam.ids.length * redTeam.count;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Generate Questions with AI" className="max-w-lg">
      {busy ? (
        <div className="flex flex-col items-center gap-3 py-8 text-center" role="status">
          <span
            className="h-6 w-6 animate-spin rounded-full border-2 border-border border-t-primary"
            aria-hidden="true"
          />
          <p className="text-sm">{EVALUATION_MESSAGES.thinking}</p>
        </div>
      ) : (
        <div className="space-y-4">
          <div className="grid gap-3 sm:grid-cols-2">
            {COUNT_FIELDS.map((field) => (
              <div key={field.key}>
                <Label htmlFor={`count-${field.key}`}>{field.label}</Label>
                <Select
                  id={`count-${field.key}`}
                  value={counts[field.key]}
                  onChange={(event) => setCounts({ ...counts, [field.key]: Number(event.target.value) })}
                >
                  {COUNT_OPTIONS.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </Select>
              </div>
            ))}
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Custom categories</legend>
            {custom.map((item, index) => (
              <div key={item.id} className="flex items-end gap-2">
                <div className="flex-1">
                  <Label htmlFor={`custom-label-${item.id}`}>Category {index + 1}</Label>
                  <Input
                    id={`custom-label-${item.id}`}
                    value={item.label}
                    placeholder="e.g. Warranty claims"
                    onChange={(event) =>
                      setCustom(custom.map((c) => (c.id === item.id ? { ...c, label: event.target.value } : c)))
                    }
                  />
                </div>
                <div className="w-24">
                  <Label htmlFor={`custom-count-${item.id}`}>Count</Label>
                  <Input
                    id={`custom-count-${item.id}`}
                    type="number"
                    min={0}
                    max={CUSTOM_CATEGORY_COUNT_CAP}
                    value={item.count}
                    onChange={(event) => {
                      const parsed = Number.parseInt(event.target.value, 10);
                      const count = Number.isFinite(parsed)
                        ? String(Math.min(Math.max(parsed, 0), CUSTOM_CATEGORY_COUNT_CAP))
                        : '';
                      setCustom(custom.map((c) => (c.id === item.id ? { ...c, count } : c)));
                    }}
                  />
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove category ${index + 1}`}
                  onClick={() => setCustom(custom.filter((c) => c.id !== item.id))}
                >
                  <Trash2 size={16} aria-hidden="true" />
                </Button>
              </div>
            ))}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setCustom([...custom, { id: `custom-${Date.now().toString(36)}`, count: '3', label: '' }])}
            >
              <Plus size={14} aria-hidden="true" /> Add category
            </Button>
          </fieldset>
          <RedTeamPicker value={redTeam} onChange={setRedTeam} />
          <p className="flex gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm" role="note">
            <AlertTriangle size={18} className="shrink-0 text-amber-700 dark:text-amber-400" aria-hidden="true" />
            Questions are generated with your own API key for the testing model. Keep an eye on your token usage.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button disabled={total === 0} onClick={() => onGenerate(counts, custom, redTeam)}>
              Generate
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
};

export type GeneratedResults = Record<string, TGeneratedQuestion[]>;

const CATEGORY_TITLES: Record<string, string> = {
  industry: 'Industry',
  angry: 'Angry customer',
  compliance: 'Compliance',
  prompthacking: 'Prompt hacking',
};

const titleOf = (category: string) =>
  CATEGORY_TITLES[category] ??
  (category.startsWith('redteam:')
    ? `Red team: ${RED_TEAM_BY_ID.get(category.slice('redteam:'.length))?.label ?? category}`
    : category);

/** Generated Questions: the review list; each question can be added to its list or rejected, once. */
export const GeneratedQuestionsDialog = ({
  open,
  results,
  onOpenChange,
  onAdd,
  onReject,
  onGenerateNew,
}: {
  open: boolean;
  results: GeneratedResults;
  onOpenChange: (open: boolean) => void;
  onAdd: (category: string, index: number) => void;
  onReject: (category: string, index: number) => void;
  onGenerateNew: () => void;
}) => (
  <Dialog open={open} onOpenChange={onOpenChange} title="Generated Questions" className="max-w-2xl">
    <div className="space-y-4">
      {Object.entries(results).map(([category, questions]) => (
        <section key={category} aria-label={titleOf(category)}>
          <h3 className="mb-2 text-sm font-semibold">{titleOf(category)}</h3>
          {questions.length ? (
            <ul className="space-y-2">
              {questions.map((item, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: generated questions have no id and never move
                  key={index}
                  className="rounded-lg border border-border p-3"
                  data-status={item.status ?? 'new'}
                >
                  <p className="text-sm font-medium">{item.question}</p>
                  <p className="mt-1 text-xs text-muted">{item.criteria}</p>
                  <div className="mt-2 flex items-center gap-2">
                    {item.status === 'added' ? (
                      <span className="inline-flex items-center gap-1 text-sm text-emerald-800 dark:text-emerald-300">
                        <Check size={14} aria-hidden="true" /> Added
                      </span>
                    ) : item.status === 'rejected' ? (
                      <span className="inline-flex items-center gap-1 text-sm text-danger">
                        <X size={14} aria-hidden="true" /> Rejected
                      </span>
                    ) : null}
                    <Button
                      size="sm"
                      disabled={Boolean(item.status)}
                      onClick={() => onAdd(category, index)}
                      aria-label={`Add question: ${item.question}`}
                    >
                      Add
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={Boolean(item.status)}
                      onClick={() => onReject(category, index)}
                      aria-label={`Reject question: ${item.question}`}
                    >
                      Reject
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No questions in this category.</p>
          )}
        </section>
      ))}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onGenerateNew}>
          Generate New Questions
        </Button>
        <Button onClick={() => onOpenChange(false)}>Save Questions</Button>
      </div>
    </div>
  </Dialog>
);
