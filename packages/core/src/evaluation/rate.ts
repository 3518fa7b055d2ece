/**
 * How a pass rate is shown. The rate is over the conversations that were evaluated (passed or
 * failed); errors and conversations not yet run are not in it, so it always stands beside
 * "n of m evaluated" and never alone.
 */
export interface RateCounts {
  passed: number;
  failed: number;
  /** Conversations that ended in error; used for the total when `total` is not given. */
  errors: number;
  /** Every conversation of the run (also those not done yet); defaults to passed + failed + errors. */
  total?: number;
}

export interface RateSummary {
  /** passed / evaluated, null when nothing was evaluated. */
  rate: number | null;
  evaluated: number;
  total: number;
  /** "67%", or "–" when nothing was evaluated. */
  percent: string;
  /** "2 of 4 evaluated". */
  evaluatedText: string;
  /** "67% · 2 of 4 evaluated", or "Not evaluated · 0 of 4 evaluated". */
  text: string;
}

export const rateSummary = (counts: RateCounts): RateSummary => {
  const evaluated = counts.passed + counts.failed;
  const total = Math.max(counts.total ?? evaluated + counts.errors, evaluated);
  const rate = evaluated > 0 ? counts.passed / evaluated : null;
  const percent = rate === null ? '–' : `${Math.round(rate * 100)}%`;
  const evaluatedText = `${evaluated} of ${total} evaluated`;
  return {
    rate,
    evaluated,
    total,
    percent,
    evaluatedText,
    text: `${rate === null ? 'Not evaluated' : percent} · ${evaluatedText}`,
  };
};
