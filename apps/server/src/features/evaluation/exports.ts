import {
  CATEGORY_LABELS,
  OFFLINE_RUN_NOTE,
  OUTCOME_LABELS,
  rateSummary,
  runStatusLabel,
  type TOwaspReport,
  type TRunResults,
} from '@switchboard/core';
import { attackReportHtml } from './attackers/report';
import { owaspSection } from './owasp-export';

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
    'error_code',
    'checks',
  ];
  const lines = results.conversations.map((item) =>
    [
      CATEGORY_LABELS[item.category],
      item.originalQuestion,
      item.question,
      item.variation,
      item.whenToAsk,
      item.outcome === 'passed' ? 'pass' : item.outcome === 'error' ? 'error' : 'fail',
      item.score,
      item.successCriteria,
      item.answer,
      item.reasoning,
      item.error,
      item.errorCode,
      item.checks.map((check) => `${check.passed ? 'PASS' : 'FAIL'} ${check.label}: ${check.detail}`).join('; '),
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
};

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const transcriptHtml = (transcript: TRunResults['conversations'][number]['transcript']) =>
  `<ol class="transcript">${transcript
    .map(
      (message) =>
        `<li><strong>${message.role === 'user' ? 'User' : 'Agent'}:</strong> ${escapeHtml(message.content)}</li>`,
    )
    .join('')}</ol>`;

/** The sub-account's brand on the report: company name, logo and primary colour. */
export interface ReportBrand {
  companyName: string;
  logoUrl: string | null;
  primaryColor: string;
}

const DEFAULT_BRAND: ReportBrand = { companyName: '', logoUrl: null, primaryColor: '#43c0b8' };

/**
 * A self-contained report a client can be handed, in the sub-account's brand: print it or save it
 * as PDF from the browser (the print stylesheet keeps colours and breaks between conversations),
 * or send its share link.
 */
export const resultsReport = (
  results: TRunResults,
  brand: ReportBrand = DEFAULT_BRAND,
  shared = false,
  /** The run's OWASP Top 10 view, shown when the run holds red-team attacks. */
  owasp?: TOwaspReport,
): string => {
  const { run } = results;
  const colour = /^#[0-9a-f]{3,6}$/i.test(brand.primaryColor) ? brand.primaryColor : DEFAULT_BRAND.primaryColor;
  const categories = results.categories
    .map(
      (item) =>
        `<tr><td>${CATEGORY_LABELS[item.category]}</td><td>${item.passed} / ${item.passed + item.failed}</td><td>${item.errors}</td><td>${escapeHtml(rateSummary(item).text)}</td></tr>`,
    )
    .join('');
  const conversations = results.conversations
    .map(
      (
        item,
      ) => `<section class="conv ${item.outcome === 'passed' ? 'pass' : item.outcome === 'error' ? 'error' : 'fail'}">
<h3>${OUTCOME_LABELS[item.outcome].toUpperCase()} · ${escapeHtml(CATEGORY_LABELS[item.category])} · variation ${item.variation}${item.outcome === 'error' ? '' : ` · score ${item.score.toFixed(2)}`}</h3>
<p><strong>Question:</strong> ${escapeHtml(item.question)}</p>
<p><strong>Success criteria:</strong> ${escapeHtml(item.successCriteria)}</p>
${item.attack ? attackReportHtml(item.attack, escapeHtml) : transcriptHtml(item.transcript)}
${item.checks.length ? `<ul class="checks">${item.checks.map((check) => `<li>${check.passed ? 'PASS' : 'FAIL'} · ${escapeHtml(check.label)}: ${escapeHtml(check.detail)}</li>`).join('')}</ul>` : ''}
${item.outcome === 'error' ? `<p><strong>Not evaluated:</strong> ${escapeHtml(item.error ?? '')}${item.errorCode ? ` (${escapeHtml(item.errorCode)})` : ''}</p>` : `<p><strong>Judge:</strong> ${escapeHtml(item.reasoning)}</p>`}
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evaluation report: ${escapeHtml(run.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${shared ? '<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">' : ''}
<style>
:root{--brand:${colour}}
.brand{display:flex;align-items:center;gap:1rem;border-bottom:4px solid var(--brand);padding-bottom:.75rem;margin-bottom:1rem}
.brand img{max-height:56px;max-width:200px;object-fit:contain}.brand strong{font-size:1.2rem}
h1,h2{color:#111}h2{border-left:6px solid var(--brand);padding-left:.5rem}
#print-report{background:var(--brand);color:#111;border:0;border-radius:6px;padding:.5rem 1rem;font-weight:600;cursor:pointer}
@page{margin:16mm}
@media print{*{-webkit-print-color-adjust:exact;print-color-adjust:exact}body{margin:0;max-width:none}h2{break-after:avoid}table{break-inside:avoid}}
body{font-family:system-ui,sans-serif;color:#111;background:#fff;max-width:900px;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;padding:.35rem .7rem;text-align:left}
.conv{border:1px solid #ccc;border-left-width:6px;border-radius:6px;padding:.5rem 1rem;margin:1rem 0;break-inside:avoid}
.pass{border-left-color:#1a7f37}.fail{border-left-color:#b42318}.error{border-left-color:#9a6700}
.offline{border:2px solid #9a6700;background:#fff8c5;padding:.5rem 1rem;border-radius:6px}.transcript{padding-left:1.2rem}.backtracked{opacity:.75;border-left:3px dashed #999;padding-left:.5rem}
h3{font-size:1rem;margin:.3rem 0}@media print{button{display:none}}
</style></head><body>
<header class="brand">${brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.companyName || 'Logo')}">` : ''}${brand.companyName ? `<strong>${escapeHtml(brand.companyName)}</strong>` : ''}</header>
<button id="print-report" type="button">Print or save as PDF</button>
<h1>Evaluation report: ${escapeHtml(run.name)}</h1>
<p>Agent under test: ${escapeHtml(run.targetLabel)} · Testing model: ${escapeHtml(run.testingModel)} · Started ${escapeHtml(run.createdAt)} · Status ${escapeHtml(runStatusLabel(run.status, run.progress.errors))}</p>
${run.offline ? `<p class="offline"><strong>${escapeHtml(OFFLINE_RUN_NOTE)}</strong></p>` : ''}
${run.error ? `<p><strong>The run stopped:</strong> ${escapeHtml(run.error)}</p>` : ''}
<h2>Summary</h2>
<p><strong>Pass rate: ${escapeHtml(rateSummary(run.progress).text)}</strong> (${run.progress.passed} passed, ${run.progress.failed} failed, ${run.progress.errors} not evaluated (errors, left out of the pass rate) of ${run.progress.total})</p>
<table><thead><tr><th>Category</th><th>Passed</th><th>Errors</th><th>Pass rate</th></tr></thead><tbody>${categories}</tbody></table>
${owasp?.attacks ? owaspSection(owasp) : ''}
<h2>Questions</h2>
<table><thead><tr><th>Question</th><th>Passed</th><th>Errors</th></tr></thead><tbody>${results.questions
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.question)}</td><td>${item.passed} of ${item.passed + item.failed}</td><td>${item.errors}</td></tr>`,
    )
    .join('')}</tbody></table>
<h2>Conversations (failures first)</h2>
${conversations}
<script>document.getElementById('print-report').addEventListener('click',function(){window.print()})</script>
</body></html>`;
};
