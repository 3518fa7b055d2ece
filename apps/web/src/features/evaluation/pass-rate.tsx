import { type RateCounts, rateSummary } from '@switchboard/core';

/**
 * A pass rate with "n of m evaluated" beside it: the rate is over the evaluated conversations only,
 * so it is never shown alone.
 */
export const PassRate = ({ counts, label }: { counts: RateCounts; label?: string }) => {
  const summary = rateSummary(counts);
  return (
    <span data-testid="pass-rate">
      {label ? `${label} ` : null}
      <strong>{summary.rate === null ? 'Not evaluated' : summary.percent}</strong>{' '}
      <span className="text-muted">· {summary.evaluatedText}</span>
    </span>
  );
};
