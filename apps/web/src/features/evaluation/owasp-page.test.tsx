import { scoreOwaspItems, type TOwaspReport } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { OwaspPage } from './owasp-page';
import { ResultsPage } from './results-page';

vi.mock('../session/session', () => ({ useSession: () => ({ currentSubaccount: { id: 'sub_1' } }) }));

const render = (report: TOwaspReport) => {
  const client = new QueryClient();
  client.setQueryData(['evaluation', 'owasp', 'evl_1'], report);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/new-evaluation/results/evl_1/owasp']}>
        <Routes>
          <Route path="/new-evaluation/results/:runId/owasp" element={<OwaspPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('the OWASP Top 10 page', () => {
  const previous = scoreOwaspItems([{ category: 'pii-leakage', outcome: 'passed' }]);
  const report: TOwaspReport = {
    runId: 'evl_1',
    framework: 'OWASP Top 10 for LLM Applications 2025',
    previousRun: { id: 'evl_0', name: 'Last week', createdAt: '2026-01-01T00:00:00.000Z' },
    items: scoreOwaspItems(
      [
        { category: 'pii-leakage', outcome: 'failed' },
        { category: 'pii-leakage', outcome: 'passed' },
        { category: 'pii-leakage', outcome: 'error' },
      ],
      previous,
    ),
    attacks: 3,
    unmapped: 0,
  };

  it('shows every item, a score with "n of m evaluated" and its trend, and untested items as Not tested', () => {
    const html = render(report);
    const page = text(html);
    for (const item of report.items) expect(page).toContain(item.id);
    expect(html).toMatch(/data-item="LLM02:2025" data-status="scored"/);
    expect(page).toContain('Risk score 50 / 100');
    expect(page).toContain('50% · 2 of 3 evaluated');
    expect(page).toContain('Higher risk (previous 0)');
    expect(html).toMatch(/data-item="LLM03:2025" data-status="not-tested"/);
    expect(page).toContain('Not tested');
    expect(page).not.toMatch(/LLM03:2025 Supply Chain Risk score/);
  });

  it('links back to the results, to a printable report and to the JSON', () => {
    const html = render(report);
    expect(html).toContain('href="/new-evaluation/results/evl_1"');
    expect(html).toContain('href="/api/evaluation/runs/evl_1/owasp/report"');
    expect(html).toContain('href="/api/evaluation/runs/evl_1/owasp"');
    expect(html).toContain('underline decoration-primary decoration-2');
  });

  it('is reached from the results of a run with prompt-hacking conversations', () => {
    const client = new QueryClient();
    const run = {
      id: 'evl_1',
      evaluationId: 'e1',
      name: 'Security check',
      type: 'chatcompletion' as const,
      agentId: null,
      targetLabel: 'gpt-4o',
      templateId: null,
      testingModel: 'gpt-4o',
      offline: false,
      status: 'completed' as const,
      error: null,
      errorReason: null,
      progress: { total: 2, done: 2, passed: 1, failed: 1, errors: 0, passRate: 0.5 },
      createdAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
    };
    client.setQueryData(['evaluation', 'results', 'evl_1'], {
      run,
      categories: [{ category: 'promptHacking', total: 2, passed: 1, failed: 1, errors: 0, passRate: 0.5 }],
      questions: [],
      conversations: [],
    });
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/new-evaluation/results/evl_1']}>
          <Routes>
            <Route path="/new-evaluation/results/:runId" element={<ResultsPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(html).toContain('href="/new-evaluation/results/evl_1/owasp"');
    expect(text(html)).toContain('OWASP Top 10 report');
  });
});
