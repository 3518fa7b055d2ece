import { describe, expect, it } from 'vitest';
import { rateSummary } from './rate';

describe('rateSummary', () => {
  it('puts "n of m evaluated" beside a rate that rests on fewer conversations than were run', () => {
    const summary = rateSummary({ passed: 1, failed: 0, errors: 3, total: 4 });
    expect(summary.rate).toBe(1);
    expect(summary.text).toBe('100% · 1 of 4 evaluated');
  });

  it('counts conversations not run yet in the total', () => {
    expect(rateSummary({ passed: 1, failed: 1, errors: 0, total: 10 }).evaluatedText).toBe('2 of 10 evaluated');
  });

  it('says "Not evaluated" rather than a rate when nothing was graded', () => {
    const summary = rateSummary({ passed: 0, failed: 0, errors: 2 });
    expect(summary.rate).toBeNull();
    expect(summary.text).toBe('Not evaluated · 0 of 2 evaluated');
  });
});
