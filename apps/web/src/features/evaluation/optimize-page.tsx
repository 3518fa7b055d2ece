import { Link } from 'react-router';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { useRunResults, useRuns } from './api';
import { PassRate } from './pass-rate';
import { ConversationItem } from './run-status';

/**
 * Optimize & Improve: the failures of the latest finished run, with the judge's reasoning, as the
 * list of what to fix in the agent's prompt or knowledge next.
 */
export const OptimizePage = () => {
  const runs = useRuns();
  const latest = runs.data?.runs.find((run) => run.status === 'completed') ?? null;
  const results = useRunResults(latest?.id ?? null);
  const failures = (results.data?.conversations ?? []).filter((item) => item.outcome === 'failed');

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading
        title="Improve from test results"
        description="What the latest evaluation found: fix these in the agent's prompt or knowledge, then run the same test again and compare."
      />
      {runs.isLoading || results.isLoading ? (
        <Spinner />
      ) : !latest ? (
        <Card className="text-sm">
          No finished evaluation yet.{' '}
          <Link to="/new-evaluation" className="underline decoration-primary decoration-2 underline-offset-4">
            Run one in the Bulk Tester
          </Link>
          .
        </Card>
      ) : (
        <div className="space-y-4">
          <Card className="text-sm">
            Latest run:{' '}
            <Link to={`/new-evaluation/results/${latest.id}`} className="font-medium underline">
              {latest.name}
            </Link>{' '}
            · {latest.targetLabel} · <PassRate label="pass rate" counts={latest.progress} />
          </Card>
          <h2 className="text-lg font-semibold">To improve ({failures.length})</h2>
          {failures.length ? (
            <ul className="space-y-2">
              {failures.map((conversation) => (
                <ConversationItem key={conversation.id} conversation={conversation} />
              ))}
            </ul>
          ) : (
            <Card className="text-sm">Every conversation of this run passed.</Card>
          )}
        </div>
      )}
    </div>
  );
};
