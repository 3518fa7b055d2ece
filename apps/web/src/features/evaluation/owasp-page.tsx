import { OWASP_STATUS_LABELS, type TOwaspItemReport } from '@switchboard/core';
import { ArrowDown, ArrowUp, Equal, FileText, Printer } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { useOwaspReport } from './api';

const linkButton =
  'inline-flex h-10 items-center gap-2 rounded-lg border border-border bg-surface px-4 text-sm font-medium text-foreground hover:bg-surface-2';

const SEVERITY_LABELS: Record<TOwaspItemReport['severity'], string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** Risk went up (worse), down (better), stayed, or the item is tested for the first time. */
export const OwaspTrend = ({ item }: { item: TOwaspItemReport }) => {
  if (!item.trend)
    return <span className="text-muted">{item.score === null ? '–' : 'No earlier run to compare with'}</span>;
  const { direction, previousScore } = item.trend;
  const previous = previousScore === null ? '' : ` (previous ${previousScore})`;
  if (direction === 'new') return <span>First scored in this run</span>;
  const Icon = direction === 'up' ? ArrowUp : direction === 'down' ? ArrowDown : Equal;
  const text = direction === 'up' ? 'Higher risk' : direction === 'down' ? 'Lower risk' : 'Unchanged';
  return (
    <span className="inline-flex items-center gap-1" data-trend={direction}>
      <Icon size={14} aria-hidden="true" />
      {text}
      {previous}
    </span>
  );
};

const OwaspItemCard = ({ item }: { item: TOwaspItemReport }) => (
  <li
    className="rounded-xl border border-border bg-surface p-4 break-inside-avoid"
    data-item={item.id}
    data-status={item.status}
  >
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h2 className="text-base font-semibold">
        <span className="font-mono">{item.id}</span> {item.name}
      </h2>
      <p className="text-sm">
        {item.score === null ? (
          <strong className="italic">{OWASP_STATUS_LABELS[item.status]}</strong>
        ) : (
          <>
            Risk score <strong className="text-lg">{item.score}</strong>
            <span className="text-muted"> / 100</span>
          </>
        )}
      </p>
    </div>
    {item.score !== null ? (
      <div className="mt-2 h-2 w-full overflow-hidden rounded-full bg-surface-2" aria-hidden="true">
        <div className="h-full rounded-full bg-primary" style={{ width: `${item.score}%` }} />
      </div>
    ) : null}
    <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
      <div>
        <dt className="inline text-muted">Severity: </dt>
        <dd className="inline">
          {SEVERITY_LABELS[item.severity]} (×{item.severityWeight})
        </dd>
      </div>
      <div>
        <dt className="inline text-muted">Attack success: </dt>
        <dd className="inline">{item.rateText}</dd>
      </div>
      {item.status !== 'not-tested' ? (
        <div>
          <dt className="inline text-muted">Attacks: </dt>
          <dd className="inline">
            {item.counts.attacked} attacked · {item.counts.succeeded} succeeded · {item.counts.notEvaluated} not
            evaluated
          </dd>
        </div>
      ) : null}
      <div>
        <dt className="inline text-muted">Trend: </dt>
        <dd className="inline">
          <OwaspTrend item={item} />
        </dd>
      </div>
      <div className="sm:col-span-2">
        <dt className="inline text-muted">Tested by: </dt>
        <dd className="inline">
          {item.categories.length ? item.categories.join(', ') : 'No red-team category tests this item'}
          {item.categories.length && item.testedCategories.length < item.categories.length
            ? ` (in this run: ${item.testedCategories.join(', ') || 'none'})`
            : ''}
        </dd>
      </div>
    </dl>
  </li>
);

/** A run's red-team results as the OWASP Top 10 for LLM Applications (2025), with the risk score per item. */
export const OwaspPage = () => {
  const { runId = '' } = useParams();
  const report = useOwaspReport(runId);
  if (report.isLoading) return <Spinner label="Loading the OWASP report" />;
  if (!report.data) return <Card className="mx-auto max-w-xl text-sm">This run was not found.</Card>;
  const { data } = report;
  return (
    <div className="mx-auto max-w-4xl space-y-5 print:max-w-none">
      <div>
        <Link
          to={`/new-evaluation/results/${runId}`}
          className="text-sm underline decoration-primary decoration-2 print:hidden"
        >
          Back to the results
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">OWASP Top 10 for LLM Applications (2025)</h1>
        <p className="mt-1 text-sm text-muted">
          {data.attacks} red-team attack(s) in this run
          {data.unmapped
            ? `; ${data.unmapped} prompt-hacking conversation(s) from no red-team category are in no item`
            : ''}
          .{' '}
          {data.previousRun
            ? `Trend against ${data.previousRun.name} (${new Date(data.previousRun.createdAt).toLocaleString()}).`
            : 'No earlier completed run of this evaluation to compare with.'}
        </p>
      </div>
      <Card className="space-y-2 text-sm">
        <p>
          <strong>Risk score</strong> = severity weight × attack success rate × 100. The rate is the attacks that got
          through (the agent failed the category's rubric) over the attacks that were evaluated; attacks that ended in
          an error are not evaluated and left out. 0 means every evaluated attack was resisted.
        </p>
        <p>An item that no red-team category tested is shown as Not tested: it is not a pass.</p>
        <div className="flex flex-wrap gap-2 print:hidden">
          <Button variant="secondary" onClick={() => window.print()}>
            <Printer size={16} aria-hidden="true" /> Print
          </Button>
          <a
            className={linkButton}
            href={`/api/evaluation/runs/${runId}/owasp/report`}
            target="_blank"
            rel="noreferrer"
          >
            <FileText size={16} aria-hidden="true" /> Printable report
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <a className={linkButton} href={`/api/evaluation/runs/${runId}/owasp`} download={`owasp-${runId}.json`}>
            <FileText size={16} aria-hidden="true" /> JSON
          </a>
        </div>
      </Card>
      <ul className="space-y-3" aria-label="OWASP items">
        {data.items.map((item) => (
          <OwaspItemCard key={item.id} item={item} />
        ))}
      </ul>
    </div>
  );
};
