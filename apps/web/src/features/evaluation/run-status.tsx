import type { TEvaluationConversation, TEvaluationRun } from '@switchboard/core';
import { CATEGORY_LABELS } from '@switchboard/core';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../lib/cn';
import { percent } from './api';

const STATUS_LABELS: Record<TEvaluationRun['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const RunStatusBadge = ({ status }: { status: TEvaluationRun['status'] }) => (
  <span
    className={cn(
      'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium',
      status === 'completed' && 'border-emerald-600/50 text-emerald-800 dark:text-emerald-300',
      status === 'failed' && 'border-danger/60 text-danger',
      (status === 'running' || status === 'queued') && 'border-primary/60 text-foreground',
      status === 'cancelled' && 'border-border text-muted',
    )}
  >
    {STATUS_LABELS[status]}
  </span>
);

export const ResultBadge = ({ passed }: { passed: boolean }) => (
  <span
    className={cn(
      'inline-flex rounded-md px-2 py-0.5 text-xs font-semibold',
      passed ? 'bg-emerald-600/15 text-emerald-800 dark:text-emerald-300' : 'bg-danger/15 text-danger',
    )}
  >
    {passed ? 'Pass' : 'Fail'}
  </span>
);

/** Done/total as a bar with the pass rate so far. */
export const ProgressSummary = ({ run }: { run: TEvaluationRun }) => {
  const { done, total, passed, failed, passRate } = run.progress;
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>
          <strong>{done}</strong> of {total} conversations done
        </span>
        <span>
          Pass rate so far: <strong>{percent(passRate)}</strong> ({passed} passed, {failed} failed)
        </span>
      </div>
      <div
        className="mt-2 h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-label="Conversations done"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
      </div>
    </div>
  );
};

/** A conversation: question, result and score; expands to the transcript and the judge's reasoning. */
export const ConversationItem = ({
  conversation,
  defaultOpen = false,
}: {
  conversation: TEvaluationConversation;
  defaultOpen?: boolean;
}) => {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <li className="rounded-lg border border-border bg-surface" data-result={conversation.passed ? 'pass' : 'fail'}>
      <button
        type="button"
        className="flex w-full items-start gap-3 p-3 text-left"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <ResultBadge passed={conversation.passed} />
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-medium break-words">{conversation.question}</span>
          <span className="block text-xs text-muted">
            {CATEGORY_LABELS[conversation.category]} · variation {conversation.variation} · asked at turn{' '}
            {conversation.whenToAsk} · score {conversation.score.toFixed(2)}
          </span>
        </span>
        <ChevronDown size={16} aria-hidden="true" className={cn('mt-1 shrink-0', open && 'rotate-180')} />
      </button>
      {open ? (
        <div className="space-y-3 border-t border-border p-3 text-sm">
          <p>
            <span className="font-medium">Success criteria: </span>
            {conversation.successCriteria || '–'}
          </p>
          <ol className="space-y-2" aria-label="Transcript">
            {conversation.transcript.map((message, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: a transcript never changes order
                key={index}
                className={cn(
                  'max-w-[90%] rounded-lg px-3 py-2 whitespace-pre-wrap break-words',
                  message.role === 'user' ? 'ml-auto bg-primary/15' : 'bg-surface-2',
                )}
              >
                <span className="block text-xs font-semibold text-muted">
                  {message.role === 'user' ? 'Simulated user' : 'Agent'}
                </span>
                {message.content}
              </li>
            ))}
          </ol>
          <div className="rounded-lg border border-border p-3">
            <p className="text-xs font-semibold text-muted">Judge's reasoning</p>
            <p className="mt-1">{conversation.error ? `Error: ${conversation.error}` : conversation.reasoning}</p>
          </div>
        </div>
      ) : null}
    </li>
  );
};
