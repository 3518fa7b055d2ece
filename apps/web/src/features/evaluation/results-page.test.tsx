import type { TEvaluationRun, TRunResults, TRunsResponse } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { BulkTesterPage } from './bulk-tester-page';
import { ComparePage } from './compare-page';
import { ResultsPage } from './results-page';

vi.mock('../session/session', () => ({ useSession: () => ({ currentSubaccount: { id: 'sub_1' } }) }));

/** One conversation evaluated (passed) and three that ended in error. */
const run: TEvaluationRun = {
  id: 'evl_1',
  evaluationId: 'e1',
  name: 'Launch check',
  type: 'chatcompletion',
  agentId: null,
  targetLabel: 'gpt-4o',
  templateId: null,
  testingModel: 'gpt-4o',
  offline: false,
  status: 'completed',
  error: null,
  errorReason: null,
  progress: { total: 4, done: 4, passed: 1, failed: 0, errors: 3, passRate: 1 },
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
};

const render = (path: string, element: React.ReactNode, seed: (client: QueryClient) => void) => {
  const client = new QueryClient();
  seed(client);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/new-evaluation/results/:runId" element={element} />
          <Route path="*" element={element} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('pass rates', () => {
  it('the results headline says how many conversations the rate rests on, not "100% passed overall"', () => {
    const results: TRunResults = {
      run,
      categories: [{ category: 'custom', total: 4, passed: 1, failed: 0, errors: 3, passRate: 1 }],
      questions: [],
      conversations: [],
    };
    const html = text(
      render('/new-evaluation/results/evl_1', <ResultsPage />, (client) =>
        client.setQueryData(['evaluation', 'results', 'evl_1'], results),
      ),
    );
    expect(html).not.toContain('passed overall');
    expect(html).toContain('100% passed · 1 of 4 evaluated');
    expect(html).toContain('100% · 1 of 4 evaluated');
  });

  it('results cached while the run was going on wait for the finished ones instead of showing as its results', () => {
    const partial: TRunResults = {
      run: { ...run, status: 'running', progress: { ...run.progress, done: 2, passed: 1, errors: 1 } },
      categories: [],
      questions: [],
      conversations: [],
    };
    const html = text(
      render('/new-evaluation/results/evl_1', <ResultsPage />, (client) =>
        client.setQueryData(['evaluation', 'results', 'evl_1'], partial),
      ),
    );
    expect(html).toContain('Loading results');
    expect(html).not.toContain('evaluated');
  });

  it('the runs list shows "n of m evaluated" beside each rate', () => {
    const runs: TRunsResponse = { runs: [run], total: 1 };
    const html = text(
      render('/new-evaluation', <BulkTesterPage />, (client) => {
        client.setQueryData(['evaluation', 'runs', 'sub_1', 'limit=25&page=1'], runs);
        client.setQueryData(['evaluation', 'agents', 'sub_1'], { agents: [] });
      }),
    );
    expect(html).toContain('Pass rate 100% · 1 of 4 evaluated');
  });

  it('the comparison shows "n of m evaluated" for both runs', () => {
    const other = {
      ...run,
      id: 'evl_2',
      progress: { ...run.progress, passed: 2, failed: 2, errors: 0, passRate: 0.5 },
    };
    const html = text(
      render('/new-evaluation/compare?base=evl_1&other=evl_2', <ComparePage />, (client) =>
        client.setQueryData(['evaluation', 'compare', 'evl_1', 'evl_2'], {
          base: run,
          other,
          rows: [],
          summary: { passToFail: 0, failToPass: 0, same: 0, added: 0, removed: 0 },
        }),
      ),
    );
    expect(html).toContain('Pass rate 100% · 1 of 4 evaluated');
    expect(html).toContain('Pass rate 50% · 4 of 4 evaluated');
  });
});
