import { CATEGORY_LABELS, type TRunResults } from '@switchboard/core';

const csvCell = (value: string | number | boolean | null) => {
  const text = value === null ? '' : String(value);
  // Cells that a spreadsheet would run as a formula are prefixed with a quote.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export const resultsCsv = (results: TRunResults): string => {
  const header = [
    'category',
    'question',
    'asked_question',
    'variation',
    'when_to_ask',
    'result',
    'score',
    'success_criteria',
    'answer',
    'reasoning',
    'error',
  ];
  const lines = results.conversations.map((item) =>
    [
      CATEGORY_LABELS[item.category],
      item.originalQuestion,
      item.question,
      item.variation,
      item.whenToAsk,
      item.passed ? 'pass' : 'fail',
      item.score,
      item.successCriteria,
      item.answer,
      item.reasoning,
      item.error,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
};

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const percent = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 100)}%`);

/** A self-contained printable report a client can be handed (print it or save it as PDF). */
export const resultsReport = (results: TRunResults): string => {
  const { run } = results;
  const categories = results.categories
    .map(
      (item) =>
        `<tr><td>${CATEGORY_LABELS[item.category]}</td><td>${item.passed} / ${item.total}</td><td>${percent(item.passRate)}</td></tr>`,
    )
    .join('');
  const conversations = results.conversations
    .map(
      (item) => `<section class="conv ${item.passed ? 'pass' : 'fail'}">
<h3>${item.passed ? 'PASS' : 'FAIL'} · ${escapeHtml(CATEGORY_LABELS[item.category])} · variation ${item.variation} · score ${item.score.toFixed(2)}</h3>
<p><strong>Question:</strong> ${escapeHtml(item.question)}</p>
<p><strong>Success criteria:</strong> ${escapeHtml(item.successCriteria)}</p>
<ol class="transcript">${item.transcript
        .map(
          (message) =>
            `<li><strong>${message.role === 'user' ? 'User' : 'Agent'}:</strong> ${escapeHtml(message.content)}</li>`,
        )
        .join('')}</ol>
<p><strong>Judge:</strong> ${escapeHtml(item.reasoning || item.error || '')}</p>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evaluation report: ${escapeHtml(run.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;color:#111;background:#fff;max-width:900px;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;padding:.35rem .7rem;text-align:left}
.conv{border:1px solid #ccc;border-left-width:6px;border-radius:6px;padding:.5rem 1rem;margin:1rem 0;break-inside:avoid}
.pass{border-left-color:#1a7f37}.fail{border-left-color:#b42318}.transcript{padding-left:1.2rem}
h3{font-size:1rem;margin:.3rem 0}@media print{button{display:none}}
</style></head><body>
<button id="print-report" type="button">Print report</button>
<h1>Evaluation report: ${escapeHtml(run.name)}</h1>
<p>Agent under test: ${escapeHtml(run.targetLabel)} · Testing model: ${escapeHtml(run.testingModel)} · Started ${escapeHtml(run.createdAt)} · Status ${run.status}</p>
<h2>Summary</h2>
<p><strong>Pass rate: ${percent(run.progress.passRate)}</strong> (${run.progress.passed} passed, ${run.progress.failed} failed of ${run.progress.total})</p>
<table><thead><tr><th>Category</th><th>Passed</th><th>Pass rate</th></tr></thead><tbody>${categories}</tbody></table>
<h2>Conversations (failures first)</h2>
${conversations}
<script>document.getElementById('print-report').addEventListener('click',function(){window.print()})</script>
</body></html>`;
};
