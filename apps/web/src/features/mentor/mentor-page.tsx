import { MENTOR_OFFLINE_LABEL, PROVIDER_LABELS, type TMentorReview, ZProviderId } from '@switchboard/core';
import { GraduationCap, Sparkles } from 'lucide-react';
import { type SyntheticEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { useAgents, useModels } from '../agents/api';
import { useSession } from '../session/session';
import { useCreateReview, useLatestReview } from './api';
import { SuggestionCard } from './suggestion-card';

const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /aimentor: pick an agent and a model, get a review, apply its suggestions one by one. */
export const MentorPage = () => {
  const { currentSubaccount } = useSession();
  const subaccountId = currentSubaccount?.id ?? null;
  const canEdit = Boolean(currentSubaccount) && currentSubaccount?.role !== 'viewer';
  const agents = useAgents(subaccountId);
  const models = useModels();
  const [params, setParams] = useSearchParams();
  const list = agents.data?.agents ?? [];
  const agentId = list.find((agent) => agent.id === params.get('agent'))?.id ?? list[0]?.id ?? '';
  const options = models.data?.models ?? [];
  const [model, setModel] = useState('');
  const preferred = options.find((option) => option.provider !== 'offline') ?? options[0];
  const chosen = model || (preferred ? `${preferred.provider}::${preferred.model}` : '');
  const latest = useLatestReview(subaccountId, agentId);
  const create = useCreateReview(subaccountId);

  const submit = (event?: SyntheticEvent) => {
    event?.preventDefault();
    if (!agentId || create.isPending) return;
    const [name = '', ...rest] = chosen.split('::');
    const provider = ZProviderId.safeParse(name);
    create.mutate({
      agentId,
      ...(provider.success && rest.length ? { provider: provider.data, model: rest.join('::') } : {}),
    });
  };

  if (agents.isLoading) {
    return (
      <div className="flex min-h-40 items-center justify-center">
        <Spinner label="Loading agents" />
      </div>
    );
  }
  if (agents.isError) {
    return (
      <Card role="alert" className="mx-auto max-w-4xl">
        <p className="text-danger">The agents could not be loaded: {agents.error.message}</p>
      </Card>
    );
  }

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <Card className="space-y-4">
        <div className="flex items-start gap-3">
          <GraduationCap size={28} className="mt-0.5 shrink-0 text-primary" aria-hidden="true" />
          <div className="space-y-1">
            <h2 className="text-lg font-semibold">Get a second opinion on an agent</h2>
            <p className="text-sm text-muted">
              The mentor reads an agent's instructions, knowledge, recent conversations and last evaluation, and
              proposes concrete changes. Each is shown as a diff; apply the ones you like in one click.
            </p>
          </div>
        </div>
        {list.length === 0 ? (
          <div className="rounded-lg border border-dashed border-border p-4 text-sm">
            <p className="font-medium">No agents yet</p>
            <p className="text-muted">Create an agent first, then come back for a review.</p>
            <Link to="/agents/create" className="mt-2 inline-block font-medium text-foreground underline">
              Create an agent
            </Link>
          </div>
        ) : (
          <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <div>
              <Label htmlFor="mentor-agent">Agent</Label>
              <Select
                id="mentor-agent"
                value={agentId}
                onChange={(event) => {
                  create.reset();
                  setParams({ agent: event.target.value }, { replace: true });
                }}
                disabled={create.isPending}
              >
                {list.map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name}
                  </option>
                ))}
              </Select>
            </div>
            <div>
              <Label htmlFor="mentor-model">Model that reviews</Label>
              <Select
                id="mentor-model"
                value={chosen}
                onChange={(event) => setModel(event.target.value)}
                disabled={create.isPending || !options.length}
              >
                {options.map((option) => (
                  <option key={`${option.provider}::${option.model}`} value={`${option.provider}::${option.model}`}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit" disabled={!canEdit || create.isPending || !agentId}>
              <Sparkles size={16} aria-hidden="true" />
              {create.isPending ? 'Reviewing…' : 'Review agent'}
            </Button>
            <p className="text-xs text-muted sm:col-span-3">
              Uses your own provider key from Settings. Without one, the offline model reviews by fixed rules and says
              so. A review is charged like any model call.
              {canEdit ? null : ' Viewers can read reviews; members and admins run them and apply suggestions.'}
            </p>
          </form>
        )}
      </Card>

      <div aria-live="polite">
        {create.isPending ? (
          <Card className="flex items-center gap-3">
            <Spinner label="Reviewing the agent" />
            <span className="text-sm">Reviewing the agent…</span>
          </Card>
        ) : create.isError ? (
          <Card role="alert" className="space-y-2 border-danger/60">
            <p className="font-medium text-danger">The review failed: {create.error.message}</p>
            <p className="text-sm text-muted">
              Nothing was changed. Check the model's provider key in Settings, or try again.
            </p>
            <Button size="sm" variant="secondary" onClick={() => submit()}>
              Try again
            </Button>
          </Card>
        ) : null}
      </div>

      {agentId && !create.isPending ? (
        latest.isLoading ? (
          <Spinner label="Loading the last review" />
        ) : latest.isError ? (
          <p role="alert" className="text-sm text-danger">
            The last review could not be loaded: {latest.error.message}
          </p>
        ) : latest.data ? (
          <ReviewResult review={latest.data} subaccountId={subaccountId} canEdit={canEdit} />
        ) : list.length ? (
          <p className="text-center text-sm text-muted">This agent has not been reviewed yet.</p>
        ) : null
      ) : null}
    </div>
  );
};

const ReviewResult = ({
  review,
  subaccountId,
  canEdit,
}: {
  review: TMentorReview;
  subaccountId: string | null;
  canEdit: boolean;
}) => {
  const { inputs } = review;
  const evaluation = inputs.evaluation;
  return (
    <section aria-labelledby="review-heading" className="space-y-4">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="review-heading" className="text-lg font-semibold">
            Review of {review.agentName}
          </h2>
          {review.offline ? (
            <span className="rounded-full border border-amber-600/60 bg-amber-500/10 px-2 py-0.5 text-xs font-medium text-amber-900 dark:text-amber-200">
              {MENTOR_OFFLINE_LABEL}
            </span>
          ) : (
            <span className="rounded-full bg-surface-2 px-2 py-0.5 text-xs text-muted">
              Reviewed with {PROVIDER_LABELS[review.provider]} · {review.model}
            </span>
          )}
        </div>
        <p className="text-sm">{review.summary}</p>
        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted">Knowledge</dt>
            <dd>
              {inputs.documents} document{inputs.documents === 1 ? '' : 's'}
            </dd>
          </div>
          <div>
            <dt className="text-muted">Recent conversations</dt>
            <dd>
              {inputs.messages} message{inputs.messages === 1 ? '' : 's'}
            </dd>
          </div>
          <div>
            <dt className="text-muted">Last evaluation</dt>
            <dd>
              {evaluation
                ? `${evaluation.name}: ${evaluation.passRate === null ? 'no graded results' : `${Math.round(evaluation.passRate * 100)}% passed`}, ${evaluation.failed} failed`
                : 'None yet'}
            </dd>
          </div>
        </dl>
        <p className="text-xs text-muted">
          {dateTime(review.createdAt)}
          {review.dropped
            ? ` · ${review.dropped} suggestion${review.dropped === 1 ? '' : 's'} did not match the agent's current text and ${review.dropped === 1 ? 'was' : 'were'} left out`
            : ''}
        </p>
      </Card>
      {review.suggestions.length ? (
        <ul aria-label="Suggestions" className="space-y-4">
          {review.suggestions.map((suggestion) => (
            <SuggestionCard
              key={suggestion.id}
              reviewId={review.id}
              agentId={review.agentId}
              suggestion={suggestion}
              subaccountId={subaccountId}
              canEdit={canEdit}
            />
          ))}
        </ul>
      ) : (
        <Card>
          <p className="text-sm">No suggestions this time: the review found nothing it could change safely.</p>
        </Card>
      )}
    </section>
  );
};
