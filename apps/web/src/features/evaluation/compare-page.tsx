import { CATEGORY_LABELS, OUTCOME_LABELS, type TConversationOutcome, type TRunComparison } from '@switchboard/core';
import { ArrowRight } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Card, Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { useComparison } from './api';
import { PassRate } from './pass-rate';

const CHANGE_LABELS: Record<TRunComparison['rows'][number]['change'], string> = {
  'pass-to-fail': 'Pass → Fail',
  'fail-to-pass': 'Fail → Pass',
  same: 'Unchanged',
  added: 'Only in the newer run',
  removed: 'Only in the older run',
};

const outcome = (value: TConversationOutcome | null) => (value === null ? '–' : OUTCOME_LABELS[value]);

/** Two runs of the same test side by side: which questions went from pass to fail and back. */
export const ComparePage = () => {
  const [params] = useSearchParams();
  const comparison = useComparison(params.get('base'), params.get('other'));
  if (comparison.isLoading) return <Spinner label="Comparing runs" />;
  const data = comparison.data;
  if (!data)
    return <Card className="mx-auto max-w-xl text-sm">Pick two runs on the Bulk Tester page to compare them.</Card>;

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold">Compare runs</h1>
      <Card className="grid gap-3 sm:grid-cols-[1fr_auto_1fr] sm:items-center">
        {[data.base, data.other].map((run, index) => (
          <div key={run.id} className={cn(index === 1 && 'sm:order-3')}>
            <Link to={`/new-evaluation/results/${run.id}`} className="font-medium underline-offset-4 hover:underline">
              {run.name}
            </Link>
            <p className="text-xs text-muted">{new Date(run.createdAt).toLocaleString()}</p>
            <p className="text-sm">
              <PassRate label="Pass rate" counts={run.progress} />
            </p>
          </div>
        ))}
        <ArrowRight className="hidden text-muted sm:order-2 sm:block" aria-hidden="true" />
      </Card>
      <p className="text-sm" aria-live="polite">
        <strong className="text-danger">{data.summary.passToFail}</strong> went from pass to fail,{' '}
        <strong className="text-emerald-800 dark:text-emerald-300">{data.summary.failToPass}</strong> from fail to pass,{' '}
        {data.summary.same} unchanged; <strong data-testid="only-newer">{data.summary.added}</strong> only in the newer
        run, <strong data-testid="only-older">{data.summary.removed}</strong> only in the older run.
      </p>
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-[560px] text-left text-sm">
          <caption className="sr-only">Questions by change</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-2 pr-2">
                Question
              </th>
              <th scope="col" className="py-2 pr-2">
                Before
              </th>
              <th scope="col" className="py-2 pr-2">
                After
              </th>
              <th scope="col" className="py-2">
                Change
              </th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr
                key={`${row.questionKey}#${row.variation}`}
                className="border-b border-border/60 align-top"
                data-change={row.change}
              >
                <td className="py-2 pr-2">
                  <span className="block break-words">{row.question}</span>
                  <span className="text-xs text-muted">
                    {CATEGORY_LABELS[row.category]} · variation {row.variation}
                  </span>
                </td>
                <td className="py-2 pr-2">{outcome(row.beforeOutcome)}</td>
                <td className="py-2 pr-2">{outcome(row.afterOutcome)}</td>
                <td
                  className={cn(
                    'py-2 font-medium',
                    row.change === 'pass-to-fail' && 'text-danger',
                    row.change === 'fail-to-pass' && 'text-emerald-800 dark:text-emerald-300',
                  )}
                >
                  {CHANGE_LABELS[row.change]}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
};
