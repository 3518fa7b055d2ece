// @vitest-environment jsdom
import type { TQuestion } from '@switchboard/core';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuestionsCsv } from './questions-csv';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const question = (text: string): TQuestion => ({
  id: text,
  text,
  selected: true,
  isEditing: false,
  variations: 0,
  whenToAsk: 1,
  successCriteria: '',
  isSuccessCriteriaEditing: false,
});

const mount = (questions: TQuestion[], onImport = vi.fn()) => {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  act(() => root.render(<QuestionsCsv questions={questions} onImport={onImport} />));
  return { host, onImport };
};

const choose = async (host: HTMLElement, text: string) => {
  const input = host.querySelector('input[type="file"]') as HTMLInputElement;
  const file = new File([text], 'questions.csv', { type: 'text/csv' });
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
};

const answer = (status: number, body: unknown) =>
  vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('CSV import and export of test questions', () => {
  it('has labelled controls: a file input behind "Import questions (CSV)" and an export button', () => {
    const { host } = mount([]);
    const input = host.querySelector('input[type="file"]') as HTMLInputElement;
    const label = host.querySelector(`label[for="${input.id}"]`);
    expect(label?.textContent).toContain('Import questions (CSV)');
    expect(input.accept).toContain('.csv');
    const exportButton = [...host.querySelectorAll('button')].find((b) => b.textContent?.includes('Export'));
    expect(exportButton?.disabled).toBe(true);
  });

  it('sends the file to the server and adds the questions it read', async () => {
    const fetch = answer(200, { questions: [question('Imported?')] });
    const { host, onImport } = mount([question('Existing')]);
    await choose(host, 'question\nImported?');
    expect(fetch).toHaveBeenCalledWith('/api/evaluation/questions/import', expect.objectContaining({ method: 'POST' }));
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({ csv: 'question\nImported?' });
    expect(onImport).toHaveBeenCalledWith([expect.objectContaining({ text: 'Imported?' })]);
  });

  it('shows the row the server refused, beside the control', async () => {
    answer(422, {
      error: { code: 'VALIDATION_ERROR', message: 'Row 3: the question is empty.', support_id: 'a'.repeat(32) },
    });
    const { host, onImport } = mount([]);
    await choose(host, 'question\nA\n,');
    expect(host.querySelector('[role="alert"]')?.textContent).toBe('Row 3: the question is empty.');
    expect(onImport).not.toHaveBeenCalled();
  });

  it('refuses a file over 1 MB without sending it', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const { host } = mount([]);
    await choose(host, 'x'.repeat(1_000_001));
    expect(fetch).not.toHaveBeenCalled();
    expect(host.querySelector('[role="alert"]')?.textContent).toContain('larger than 1 MB');
  });

  it('exports the questions with formula-like cells neutralised', async () => {
    let written: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      written = blob;
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { host } = mount([question('=cmd|calc'), question('Plain')]);
    const exportButton = [...host.querySelectorAll('button')].find((b) => b.textContent?.includes('Export'));
    act(() => exportButton?.click());
    expect(click).toHaveBeenCalled();
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(written as Blob);
    });
    expect(text).toBe("question,expected_answer,checks\r\n'=cmd|calc,,\r\nPlain,,\r\n");
  });
});
