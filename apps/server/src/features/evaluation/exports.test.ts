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
    status: 'completed',
    error: null,
    progress: { total: 1, done: 1, passed: 0, failed: 1, passRate: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
  },
  categories: [{ category: 'custom', total: 1, passed: 0, passRate: 0 }],
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
      passed: false,
      score: 0.2,
      reasoning: 'The answer says "Hello".',
      error: null,
      createdAt: '2026-01-01T00:00:30.000Z',
    },
  ],
};

describe('exports', () => {
  it('writes CSV with quoting and neutralised formulas', () => {
    const lines = resultsCsv(results).split('\r\n');
    expect(lines[0]).toBe(
      'category,question,asked_question,variation,when_to_ask,result,score,success_criteria,answer,reasoning,error',
    );
    expect(lines[1]).toContain('"Say ""hi"", please"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain('"Hello\nthere"'.split('\n')[0]);
  });

  it('escapes the printable report', () => {
    const html = resultsReport(results);
    expect(html).toContain('Launch &lt;check&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Pass rate: 0%');
  });
});
