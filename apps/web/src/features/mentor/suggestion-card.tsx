import { MENTOR_FIELD_LABELS, type TMentorSuggestion } from '@switchboard/core';
import { Check, X } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useDecideSuggestion } from './api';
import { DiffView } from './diff-view';

/** One proposal: what and why, the change as a diff, and Apply / Dismiss. */
export const SuggestionCard = ({
  reviewId,
  agentId,
  suggestion,
  subaccountId,
  canEdit,
}: {
  reviewId: string;
  agentId: string;
  suggestion: TMentorSuggestion;
  subaccountId: string | null;
  canEdit: boolean;
}) => {
  const decide = useDecideSuggestion(subaccountId);
  const titleId = `suggestion-${reviewId}-${suggestion.id}`;
  const field = MENTOR_FIELD_LABELS[suggestion.field];
  const busy = decide.isPending;
  const run = (action: 'apply' | 'dismiss') => decide.mutate({ reviewId, suggestionId: suggestion.id, action });
  return (
    <li>
      <article
        aria-labelledby={titleId}
        data-status={suggestion.status}
        className={cn(
          'space-y-3 rounded-xl border bg-surface p-4',
          suggestion.status === 'applied' ? 'border-emerald-600/60' : 'border-border',
          suggestion.status === 'dismissed' && 'opacity-80',
        )}
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={titleId} className="font-semibold">
            {suggestion.title}
          </h3>
          <span className="rounded-full bg-surface-2 px-2 py-0.5 text-xs text-muted">{field}</span>
        </div>
        <p className="text-sm">{suggestion.why}</p>
        <DiffView before={suggestion.before} after={suggestion.after} label={`Change to the ${field.toLowerCase()}`} />
        <div className="flex flex-wrap items-center gap-2" aria-live="polite">
          {suggestion.status === 'open' ? (
            <>
              <Button size="sm" onClick={() => run('apply')} disabled={!canEdit || busy}>
                {busy && decide.variables?.action === 'apply' ? 'Applying…' : 'Apply'}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => run('dismiss')} disabled={!canEdit || busy}>
                Dismiss
              </Button>
            </>
          ) : suggestion.status === 'applied' ? (
            <>
              <span className="inline-flex items-center gap-1 text-sm font-medium text-emerald-800 dark:text-emerald-300">
                <Check size={16} aria-hidden="true" /> Applied
              </span>
              <Link to={`/agents/${agentId}`} className="text-sm font-medium text-foreground underline">
                Open the agent
              </Link>
            </>
          ) : (
            <span className="inline-flex items-center gap-1 text-sm text-muted">
              <X size={16} aria-hidden="true" /> Dismissed
            </span>
          )}
        </div>
        {decide.error ? (
          <p role="alert" className="text-sm text-danger">
            {decide.error.message}
          </p>
        ) : null}
      </article>
    </li>
  );
};
