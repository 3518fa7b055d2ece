import type { TEvaluationConversation, TEvaluationRun, TRunEvent } from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { toast } from '../../lib/toast';
import { cancelEvaluation, useRunResults } from './api';
import { ConversationItem, OfflineRunNote, ProgressSummary, RunStatusBadge, RunStoppedNote } from './run-status';

const finished = (status: TEvaluationRun['status']) => ['completed', 'failed', 'cancelled'].includes(status);

/** Live progress of a run over server-sent events: done/total, pass rate, transcripts as they complete. */
export const RunningPage = () => {
  const [params] = useSearchParams();
  const runId = params.get('run');
  const initial = useRunResults(runId);
  const [run, setRun] = useState<TEvaluationRun | null>(null);
  const [live, setLive] = useState<TEvaluationConversation[]>([]);
  const [cancelling, setCancelling] = useState(false);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!runId) return;
    const source = new EventSource(`/api/evaluation/runs/${runId}/events`, { withCredentials: true });
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as TRunEvent;
      setRun(event.run);
      if (event.type === 'conversation') {
        setLive((previous) =>
          previous.some((item) => item.id === event.conversation.id) ? previous : [event.conversation, ...previous],
        );
      }
      if (finished(event.run.status)) {
        source.close();
        // The results page reads the same query: what was loaded at the start of the run is stale now.
        void queryClient.invalidateQueries({ queryKey: ['evaluation'] });
      }
    };
    return () => source.close();
  }, [runId, queryClient]);

  if (!runId) {
    return (
      <Card className="mx-auto max-w-xl text-sm">
        No run selected.{' '}
        <Link to="/new-evaluation" className="underline decoration-primary decoration-2 underline-offset-4">
          Open the Bulk Tester
        </Link>
        .
      </Card>
    );
  }
  const current = run ?? initial.data?.run ?? null;
  const known = new Set(live.map((item) => item.id));
  const conversations = [...live, ...(initial.data?.conversations ?? []).filter((item) => !known.has(item.id))];

  const cancel = async () => {
    setCancelling(true);
    try {
      const updated = await cancelEvaluation(runId);
      setRun(updated);
      toast.success('Evaluation cancelled');
    } finally {
      setCancelling(false);
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words">{current?.name ?? 'Evaluation'}</h1>
          {current ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
              {current.targetLabel} · testing model {current.testingModel} <RunStatusBadge run={current} />
            </p>
          ) : null}
          {current ? <OfflineRunNote run={current} /> : null}
        </div>
        <div className="flex gap-2">
          {current && !finished(current.status) ? (
            <Button variant="danger" onClick={cancel} disabled={cancelling}>
              {cancelling ? 'Cancelling...' : 'Cancel run'}
            </Button>
          ) : null}
          {current && finished(current.status) ? (
            <Link
              to={`/new-evaluation/results/${runId}`}
              className="inline-flex h-10 items-center rounded-lg bg-primary px-4 text-sm font-medium text-primary-foreground"
            >
              View results
            </Link>
          ) : null}
        </div>
      </div>
      <Card aria-live="polite">
        {current ? <ProgressSummary run={current} /> : <Spinner label="Loading the run" />}
        {current?.error && current.status !== 'failed' ? (
          <p className="mt-2 text-sm text-danger">{current.error}</p>
        ) : null}
        {current ? <RunStoppedNote run={current} /> : null}
      </Card>
      <section aria-label="Finished conversations">
        <h2 className="mb-2 text-lg font-semibold">Finished conversations</h2>
        {conversations.length ? (
          <ul className="space-y-2">
            {conversations.map((conversation) => (
              <ConversationItem key={conversation.id} conversation={conversation} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">The first conversations are under way.</p>
        )}
      </section>
    </div>
  );
};
