import type { TRunResults } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { resultsCsv, resultsReport } from './exports';

const results: TRunResults = {
  run: {
    id: 'evl_1',
    evaluationId: 'e1',
    name: 'Launch <check>',
    type: 'chatcompletion',
    agentId: null,
    targetLabel: 'gpt-4o',
    templateId: null,
    testingModel: 'gpt-4o',
    offline: false,
    status: 'completed',
    error: null,
    errorReason: null,
    progress: { total: 2, done: 2, passed: 0, failed: 1, errors: 1, passRate: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
  },
  categories: [{ category: 'custom', total: 2, passed: 0, failed: 1, errors: 1, passRate: 0 }],
  questions: [
    {
      questionKey: 'custom:a',
      category: 'custom',
      question: 'Say "hi", please',
      total: 1,
      passed: 0,
      failed: 1,
      errors: 0,
    },
    { questionKey: 'custom:b', category: 'custom', question: 'Second', total: 1, passed: 0, failed: 0, errors: 1 },
  ],
  conversations: [
    {
      id: 'evc_1',
      questionKey: 'custom:a',
      category: 'custom',
      variation: 0,
      question: '=HYPERLINK("x")',
      originalQuestion: 'Say "hi", please',
      successCriteria: 'Greets',
      whenToAsk: 1,
      transcript: [
        { role: 'user', content: '<script>alert(1)</script>' },
        { role: 'assistant', content: 'Hello\nthere' },
      ],
      answer: 'Hello\nthere',
      outcome: 'failed',
      passed: false,
      score: 0.2,
      reasoning: 'The answer says "Hello".',
      error: null,
      errorCode: null,
      errorReason: null,
      checks: [{ type: 'contains', label: 'Contains "hello"', passed: true, detail: 'Found in the answer.' }],
      createdAt: '2026-01-01T00:00:30.000Z',
    },
    {
      id: 'evc_2',
      questionKey: 'custom:b',
      category: 'custom',
      variation: 0,
      question: 'Second',
      originalQuestion: 'Second',
      successCriteria: 'Answers',
      whenToAsk: 1,
      transcript: [{ role: 'user', content: 'Second' }],
      answer: '',
      outcome: 'error',
      passed: false,
      score: 0,
      reasoning: '',
      error: 'Server error occurred',
      errorCode: 'AI_SERVICE_ERROR',
      errorReason: 'config_error',
      checks: [],
      createdAt: '2026-01-01T00:00:31.000Z',
    },
  ],
};

describe('exports', () => {
  it('writes CSV with quoting and neutralised formulas', () => {
    const lines = resultsCsv(results).split('\r\n');
    expect(lines[0]).toBe(
      'category,question,asked_question,variation,when_to_ask,result,score,success_criteria,answer,reasoning,error,error_code,checks',
    );
    expect(lines[2]).toContain(',error,');
    expect(lines[2]).toContain('AI_SERVICE_ERROR');
    expect(lines[1]).toContain('"Say ""hi"", please"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain('"Hello\nthere"'.split('\n')[0]);
  });

  it('escapes the printable report', () => {
    const html = resultsReport(results);
    expect(html).toContain('Launch &lt;check&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Pass rate: 0% · 1 of 2 evaluated');
    expect(html).toContain('Completed with 1 error');
    expect(html).toContain('PASS · Contains &quot;hello&quot;: Found in the answer.');
    expect(html).toContain('<td>Second</td><td>0 of 0</td><td>1</td>');
    expect(html).toContain('Not evaluated:</strong> Server error occurred');
    expect(html).not.toContain('Offline model');
  });

  it('shows the rate over evaluated conversations with "n of m evaluated", in the summary and per category', () => {
    const progress = { total: 4, done: 4, passed: 1, failed: 0, errors: 3, passRate: 1 };
    const html = resultsReport({
      ...results,
      run: { ...results.run, progress },
      categories: [{ category: 'custom', total: 4, passed: 1, failed: 0, errors: 3, passRate: 1 }],
    });
    expect(html).toContain('Pass rate: 100% · 1 of 4 evaluated');
    expect(html).toContain('<td>100% · 1 of 4 evaluated</td>');
    expect(html).not.toMatch(/Pass rate: 100%</);
  });

  it('labels a run of the offline model', () => {
    const html = resultsReport({ ...results, run: { ...results.run, offline: true } });
    expect(html).toContain('Offline model: deterministic answers');
  });
});
