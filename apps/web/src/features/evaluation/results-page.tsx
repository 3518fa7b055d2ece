import { CATEGORY_LABELS, rateSummary, type TEvaluationRun } from '@switchboard/core';
import { Download, FileText, GitCompare, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { useRunResults, useRuns } from './api';
import { PassRate } from './pass-rate';
import { ConversationItem, OfflineRunNote, ProgressSummary, RunStatusBadge, RunStoppedNote } from './run-status';
import { ShareReport } from './share-report';

const linkButton =
  'inline-flex h-10 items-center gap-2 rounded-lg border border-border bg-surface px-4 text-sm font-medium text-foreground hover:bg-surface-2';

const unfinished = (run: TEvaluationRun | undefined) => run !== undefined && ['queued', 'running'].includes(run.status);

/** A run's results: summary (overall and per category), transcripts failures first, exports, compare. */
export const ResultsPage = () => {
  const { runId = '' } = useParams();
  const navigate = useNavigate();
  const results = useRunResults(runId, (query) => (unfinished(query.state.data?.run) ? 2000 : false));
  const run = results.data?.run;
  const siblings = useRuns({ agentId: run?.agentId ?? undefined });
  const [other, setOther] = useState('');

  // Results cached while the run was going on are not shown as if they were its results. Once
  // fetched here they stay shown (a finished run never becomes unfinished again).
  if (results.isLoading || (!results.isFetchedAfterMount && unfinished(run)))
    return <Spinner label="Loading results" />;
  if (!results.data || !run) return <Card className="mx-auto max-w-xl text-sm">This run was not found.</Card>;
  const headline = rateSummary(run.progress);
  const candidates = (siblings.data?.runs ?? []).filter((item) => item.id !== run.id);

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div>
        <h1 className="text-2xl font-semibold break-words">{run.name}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
          {run.targetLabel} · testing model {run.testingModel} · {new Date(run.createdAt).toLocaleString()}
          <RunStatusBadge run={run} />
        </p>
      </div>
      <OfflineRunNote run={run} />
      <RunStoppedNote run={run} />
      <Card className="space-y-4">
        <p className="text-3xl font-semibold">
          {headline.rate === null ? 'Not evaluated' : headline.percent}{' '}
          <span className="text-base font-normal text-muted">
            {headline.rate === null ? '' : 'passed · '}
            {headline.evaluatedText}
          </span>
        </p>
        <ProgressSummary run={run} />
        {results.data.categories.length ? (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Pass rate per category</caption>
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className="py-1">
                  Category
                </th>
                <th scope="col" className="py-1">
                  Passed
                </th>
                <th scope="col" className="py-1">
                  Errors
                </th>
                <th scope="col" className="py-1">
                  Pass rate
                </th>
              </tr>
            </thead>
            <tbody>
              {results.data.categories.map((item) => (
                <tr key={item.category} className="border-b border-border/60">
                  <td className="py-1">{CATEGORY_LABELS[item.category]}</td>
                  <td className="py-1">
                    {item.passed} / {item.passed + item.failed}
                  </td>
                  <td className="py-1">{item.errors}</td>
                  <td className="py-1">
                    <PassRate counts={item} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <a className={linkButton} href={`/api/evaluation/runs/${run.id}/export.csv`} download>
            <Download size={16} aria-hidden="true" /> Export CSV
          </a>
          <a className={linkButton} href={`/api/evaluation/runs/${run.id}/export.json`} download>
            <Download size={16} aria-hidden="true" /> Export JSON
          </a>
          <a className={linkButton} href={`/api/evaluation/runs/${run.id}/report`} target="_blank" rel="noreferrer">
            <FileText size={16} aria-hidden="true" /> Branded report (print or PDF)
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          {results.data.categories.some((item) => item.category === 'promptHacking') ? (
            <Link className={linkButton} to={`/new-evaluation/results/${run.id}/owasp`}>
              <ShieldAlert size={16} aria-hidden="true" /> OWASP Top 10 report
            </Link>
          ) : null}
          <ShareReport runId={run.id} />
        </div>
      </Card>
      {results.data.questions.length ? (
        <Card>
          <table className="w-full text-left text-sm">
            <caption className="mb-2 text-left text-lg font-semibold">Results per question</caption>
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className="py-1">
                  Question
                </th>
                <th scope="col" className="py-1">
                  Variations passed
                </th>
              </tr>
            </thead>
            <tbody>
              {results.data.questions.map((item) => (
                <tr
                  key={item.questionKey}
                  className="border-b border-border/60 align-top"
                  data-question={item.questionKey}
                >
                  <td className="py-1 pr-2 break-words">{item.question}</td>
                  <td className="py-1">
                    {item.passed} of {item.passed + item.failed} passed
                    {item.errors ? ` (${item.errors} not evaluated)` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ) : null}
      <Card>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <Label htmlFor="compare-with">Compare with another run</Label>
            <Select id="compare-with" value={other} onChange={(event) => setOther(event.target.value)}>
              <option value="">Select a run</option>
              {candidates.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name} ({new Date(item.createdAt).toLocaleString()})
                </option>
              ))}
            </Select>
          </div>
          <Button
            variant="secondary"
            disabled={!other}
            onClick={() => navigate(`/new-evaluation/compare?base=${other}&other=${run.id}`)}
          >
            <GitCompare size={16} aria-hidden="true" /> Compare
          </Button>
        </div>
      </Card>
      <section aria-label="Conversations">
        <h2 className="mb-2 text-lg font-semibold">Conversations (failures first)</h2>
        <ul className="space-y-2">
          {results.data.conversations.map((conversation) => (
            <ConversationItem key={conversation.id} conversation={conversation} />
          ))}
        </ul>
      </section>
    </div>
  );
};
