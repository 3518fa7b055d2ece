import type { TQuestion } from '@switchboard/core';
import { ChevronDown, Plus } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { QuestionRow } from './question-row';

/** A collapsible question group with its include checkbox and Add Question button. */
export const QuestionGroup = ({
  title,
  included,
  open,
  questions,
  onIncludedChange,
  onOpenChange,
  onAdd,
  onChange,
  onRemove,
}: {
  title: string;
  included: boolean;
  open: boolean;
  questions: TQuestion[];
  onIncludedChange: (included: boolean) => void;
  onOpenChange: (open: boolean) => void;
  onAdd: () => void;
  onChange: (id: string, patch: Partial<TQuestion>) => void;
  onRemove: (id: string) => void;
}) => {
  const panelId = useId();
  const selected = questions.filter((question) => question.selected).length;
  return (
    <section className="rounded-xl border border-border bg-surface" aria-label={title}>
      <div className="flex flex-wrap items-center gap-3 p-3">
        <input
          type="checkbox"
          className="h-4 w-4 accent-[var(--primary,#43c0b8)]"
          checked={included}
          onChange={(event) => onIncludedChange(event.target.checked)}
          aria-label={`Include ${title.replace(/^Add /, '')}`}
        />
        <button
          type="button"
          className="flex min-w-0 flex-1 items-center gap-2 text-left font-medium"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => onOpenChange(!open)}
        >
          <ChevronDown
            size={18}
            aria-hidden="true"
            className={cn('shrink-0 transition-transform', open && 'rotate-180')}
          />
          <span className="truncate">{title}</span>
          <span className="text-xs font-normal text-muted">
            {selected}/{questions.length} selected
          </span>
        </button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            onAdd();
            onOpenChange(true);
          }}
          aria-label={`Add Question to ${title.replace(/^Add /, '')}`}
        >
          <Plus size={14} aria-hidden="true" /> Add Question
        </Button>
      </div>
      {open ? (
        <div id={panelId} className="border-t border-border p-3">
          {questions.length ? (
            <ul className="space-y-2">
              {questions.map((question, index) => (
                <QuestionRow
                  key={question.id}
                  question={question}
                  index={index}
                  onChange={(patch) => onChange(question.id, patch)}
                  onRemove={() => onRemove(question.id)}
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No questions yet. Add one, or generate some with AI.</p>
          )}
        </div>
      ) : null}
    </section>
  );
};
