import type { AppErrorType, TConversationOutcome, TEvaluationConversation, TEvaluationRun } from '@switchboard/core';
import {
  ADAPTIVE_STRATEGY_LABELS,
  CATEGORY_LABELS,
  DEFAULT_ADVICE,
  dialogTitle,
  fromServerReason,
  OFFLINE_RUN_NOTE,
  OUTCOME_LABELS,
  runStatusLabel,
} from '@switchboard/core';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Markdown } from '../../components/markdown';
import { ToolCallList } from '../../components/tool-calls';
import { cn } from '../../lib/cn';
import { useSession } from '../session/session';
import { AttackTranscript } from './attack-transcript';
import { PassRate } from './pass-rate';

/** The run's status; a completed run with errors says how many ("Completed with 3 errors"). */
export const RunStatusBadge = ({ run }: { run: Pick<TEvaluationRun, 'status' | 'progress'> }) => {
  const { status } = run;
  const withErrors = status === 'completed' && run.progress.errors > 0;
  return (
    <span
      data-testid="run-status"
      className={cn(
        'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium',
        status === 'completed' && !withErrors && 'border-emerald-600/50 text-emerald-800 dark:text-emerald-300',
        withErrors && 'border-amber-600/60 text-amber-800 dark:text-amber-300',
        status === 'failed' && 'border-danger/60 text-danger',
        (status === 'running' || status === 'queued') && 'border-primary/60 text-foreground',
        status === 'cancelled' && 'border-border text-muted',
      )}
    >
      {runStatusLabel(status, run.progress.errors)}
    </span>
  );
};

const KEY_REASONS = new Set(['no_api_key', 'invalid_api_key', 'quota_exceeded']);

/** Why a run stopped, as the error dialog would title and explain it, with the way to the provider settings. */
export const RunStoppedNote = ({ run }: { run: Pick<TEvaluationRun, 'status' | 'error' | 'errorReason'> }) => {
  const subaccountId = useSession().currentSubaccount?.id;
  if (run.status !== 'failed' || !run.error) return null;
  const appError = run.errorReason ? fromServerReason(run.errorReason, '', run.error) : undefined;
  return (
    <div className="rounded-lg border border-danger/60 p-3 text-sm" role="note" aria-label="The run stopped">
      <p className="font-semibold text-danger">The run stopped{appError ? `: ${dialogTitle(appError)}` : ''}</p>
      <p className="mt-1">{run.error}</p>
      {appError ? <p className="mt-1 text-muted">{appError.advice}</p> : null}
      {run.errorReason && KEY_REASONS.has(run.errorReason) && subaccountId ? (
        <Link
          to={`/${subaccountId}/ai-settings`}
          className="mt-2 inline-block underline decoration-primary decoration-2 underline-offset-4"
        >
          Update API Key
        </Link>
      ) : null}
    </div>
  );
};

/** The offline label of a run the offline model played a part in. */
export const OfflineRunNote = ({ run }: { run: Pick<TEvaluationRun, 'offline'> }) =>
  run.offline ? (
    <p
      data-testid="offline-run"
      className="rounded-lg border border-amber-600/60 bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200"
    >
      {OFFLINE_RUN_NOTE}
    </p>
  ) : null;

export const ResultBadge = ({ outcome }: { outcome: TConversationOutcome }) => (
  <span
    className={cn(
      'inline-flex rounded-md px-2 py-0.5 text-xs font-semibold',
      outcome === 'passed' && 'bg-emerald-600/15 text-emerald-800 dark:text-emerald-300',
      outcome === 'failed' && 'bg-danger/15 text-danger',
      outcome === 'error' && 'bg-amber-500/15 text-amber-900 dark:text-amber-200',
    )}
  >
    {OUTCOME_LABELS[outcome]}
  </span>
);

/** A conversation's error as the error dialog would title and explain it (8.3/8.4). */
const ConversationError = ({ conversation }: { conversation: TEvaluationConversation }) => {
  const appError = (conversation.errorReason &&
    fromServerReason(conversation.errorReason, conversation.errorCode ?? '', conversation.error ?? '')) || {
    type: 'server_code' as AppErrorType,
    code: conversation.errorCode ?? undefined,
    message: conversation.error ?? 'An error occurred',
    advice: DEFAULT_ADVICE,
    actions: [],
  };
  return (
    <div className="rounded-lg border border-amber-600/60 p-3" role="note" aria-label="Not evaluated">
      <p className="text-xs font-semibold text-muted">Not evaluated: {dialogTitle(appError)}</p>
      <p className="mt-1">{appError.message}</p>
      <p className="mt-1 text-muted">{appError.advice}</p>
      <p className="mt-1 text-xs text-muted">Left out of the pass rate.</p>
    </div>
  );
};

/** Done/total as a bar with the pass rate so far (errors are left out of it). */
export const ProgressSummary = ({ run }: { run: TEvaluationRun }) => {
  const { done, total, passed, failed, errors } = run.progress;
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>
          <strong>{done}</strong> of {total} conversations done
        </span>
        <span>
          <PassRate label="Pass rate so far:" counts={run.progress} /> ({passed} passed, {failed} failed
          {errors ? `, ${errors} not evaluated` : ''})
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
    <li
      className="rounded-lg border border-border bg-surface"
      data-result={conversation.outcome === 'passed' ? 'pass' : conversation.outcome === 'error' ? 'error' : 'fail'}
    >
      <button
        type="button"
        className="flex w-full items-start gap-3 p-3 text-left"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <ResultBadge outcome={conversation.outcome} />
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-medium break-words">{conversation.question}</span>
          <span className="block text-xs text-muted">
            {conversation.attack
              ? `Adaptive attack · ${ADAPTIVE_STRATEGY_LABELS[conversation.attack.strategy]} · ${conversation.attack.steps.length} steps`
              : `${CATEGORY_LABELS[conversation.category]} · variation ${conversation.variation} · asked at turn ${conversation.whenToAsk}`}
            {conversation.outcome === 'error' ? '' : ` · score ${conversation.score.toFixed(2)}`}
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
          {conversation.attack ? (
            <AttackTranscript attack={conversation.attack} outcome={conversation.outcome} />
          ) : (
            <ol className="space-y-2" aria-label="Transcript">
              {conversation.transcript.map((message, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: a transcript never changes order
                  key={index}
                  className={cn(
                    'max-w-[90%] rounded-lg px-3 py-2 break-words',
                    message.role === 'user' ? 'ml-auto bg-primary/15' : 'bg-surface-2',
                  )}
                >
                  <span className="block text-xs font-semibold text-muted">
                    {message.role === 'user' ? 'Simulated user' : 'Agent'}
                  </span>
                  {message.role === 'user' ? (
                    <p className="whitespace-pre-wrap">{message.content}</p>
                  ) : (
                    <Markdown text={message.content} />
                  )}
                  {message.toolCalls?.length ? <ToolCallList calls={message.toolCalls} className="max-w-full" /> : null}
                  {message.sources?.length ? (
                    <details className="mt-1 text-xs">
                      <summary className="cursor-pointer text-muted">Sources ({message.sources.length})</summary>
                      <ul className="mt-1 space-y-1" aria-label="Sources">
                        {message.sources.map((source, sourceIndex) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: excerpts keep the order they were retrieved in
                          <li key={sourceIndex}>
                            <span className="font-medium">{source.name}</span>
                            <span className="text-muted"> {source.excerpt}</span>
                          </li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {conversation.checks.length ? (
            <ul className="space-y-1 rounded-lg border border-border p-3" aria-label="Checks">
              {conversation.checks.map((check, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: results keep the order of the question's checks
                  key={index}
                  className="flex flex-wrap items-baseline gap-2"
                >
                  <ResultBadge outcome={check.passed ? 'passed' : 'failed'} />
                  <span className="font-medium">{check.label}</span>
                  <span className="text-muted">{check.detail}</span>
                  {check.unsupported?.length ? (
                    <ul className="w-full list-disc pl-5 text-muted" aria-label="Unsupported claims">
                      {check.unsupported.map((claim, claimIndex) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: claims keep the answer's order
                        <li key={claimIndex}>{claim}</li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {conversation.outcome === 'error' ? (
            <ConversationError conversation={conversation} />
          ) : (
            <div className="rounded-lg border border-border p-3">
              <p className="text-xs font-semibold text-muted">Judge's reasoning</p>
              <p className="mt-1">{conversation.reasoning}</p>
            </div>
          )}
        </div>
      ) : null}
    </li>
  );
};
