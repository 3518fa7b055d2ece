import { Bot, MessageSquareText } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { useAgents, useRuns } from './api';
import { PassRate } from './pass-rate';
import { RunStatusBadge } from './run-status';

/** Bulk Tester (/dashboard, /new-evaluation): start a new evaluation, list runs, pick two to compare. */
export const BulkTesterPage = () => {
  const navigate = useNavigate();
  const [agentId, setAgentId] = useState('');
  const [page, setPage] = useState(1);
  const runs = useRuns({ agentId: agentId || undefined, page });
  const agents = useAgents();
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) =>
    setPicked((previous) =>
      previous.includes(id) ? previous.filter((item) => item !== id) : [...previous, id].slice(-2),
    );
  const pages = Math.max(1, Math.ceil((runs.data?.total ?? 0) / 25));

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeading
        title="Evaluations"
        description="Test agents with simulated users and red-team questions before they go live."
      />
      <div className="mb-6 grid gap-3 sm:grid-cols-2">
        <Card className="flex flex-col gap-3">
          <MessageSquareText className="text-primary" aria-hidden="true" />
          <h2 className="font-semibold">Test a prompt</h2>
          <p className="text-sm text-muted">Chat completion: a model and a prompt, or one of your agents.</p>
          <Button className="self-start" onClick={() => navigate('/new-evaluation/openai-chatcompletion')}>
            New chat completion test
          </Button>
        </Card>
        <Card className="flex flex-col gap-3">
          <Bot className="text-primary" aria-hidden="true" />
          <h2 className="font-semibold">Test an agent</h2>
          <p className="text-sm text-muted">Assistant: an agent with its knowledge and tools.</p>
          <Button className="self-start" onClick={() => navigate('/new-evaluation/openai-assistants')}>
            New assistant test
          </Button>
        </Card>
      </div>

      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-semibold">Runs</h2>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <Label htmlFor="runs-agent">Agent</Label>
            <Select
              id="runs-agent"
              value={agentId}
              onChange={(event) => {
                setAgentId(event.target.value);
                setPage(1);
              }}
            >
              <option value="">All agents and prompts</option>
              {agents.data?.agents.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </Select>
          </div>
          <Button
            variant="secondary"
            disabled={picked.length !== 2}
            onClick={() => navigate(`/new-evaluation/compare?base=${picked[0]}&other=${picked[1]}`)}
          >
            Compare selected
          </Button>
        </div>
      </div>
      {runs.isLoading ? (
        <Spinner />
      ) : runs.data?.runs.length ? (
        <ul className="space-y-2">
          {runs.data.runs.map((run) => (
            <li
              key={run.id}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-border bg-surface p-3"
            >
              <input
                type="checkbox"
                className="h-4 w-4 accent-[var(--primary,#43c0b8)]"
                checked={picked.includes(run.id)}
                onChange={() => toggle(run.id)}
                aria-label={`Pick ${run.name} to compare`}
              />
              <div className="min-w-0 flex-1">
                <Link
                  to={
                    run.status === 'running' || run.status === 'queued'
                      ? `/new-evaluation/running?run=${run.id}`
                      : `/new-evaluation/results/${run.id}`
                  }
                  className="font-medium break-words underline-offset-4 hover:underline"
                >
                  {run.name}
                </Link>
                <p className="text-xs text-muted">
                  {run.targetLabel} · {new Date(run.createdAt).toLocaleString()} · {run.progress.done}/
                  {run.progress.total}
                </p>
              </div>
              <span className="text-sm">
                <PassRate label="Pass rate" counts={run.progress} />
              </span>
              {run.offline ? <span className="text-xs text-muted">Offline model</span> : null}
              <RunStatusBadge run={run} />
            </li>
          ))}
        </ul>
      ) : (
        <Card className="text-sm text-muted">No evaluation runs yet. Start one above.</Card>
      )}
      {pages > 1 ? (
        <nav className="mt-3 flex items-center justify-end gap-2" aria-label="Runs pages">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
};
