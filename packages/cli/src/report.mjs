/**
 * What `switchboard eval run` writes: the JUnit XML file for CI, the Markdown summary for a pull
 * request comment, the comparison table of several targets, and the exit code of a set of runs.
 * Self-contained: it knows the server only by its JSON answers.
 */

export const CATEGORY = { custom: 'Custom', compliance: 'Compliance', promptHacking: 'Prompt hacking' };

/** Exit codes, as documented in docs/features/evaluation.md. */
export const EXIT = { passed: 0, belowThreshold: 1, notEvaluated: 2 };

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

export const pct = (rate) => (rate == null ? '–' : `${(rate * 100).toFixed(1)}%`);

/**
 * A pass rate with "n of m evaluated" beside it: the rate is over passed + failed only, so it is
 * never printed alone. `counts` is a run's progress or a category summary.
 */
export const rateText = (counts) => {
  const evaluated = counts.passed + counts.failed;
  const total = Math.max(counts.total ?? evaluated + counts.errors, evaluated);
  const rate = evaluated > 0 ? counts.passed / evaluated : null;
  return `${rate === null ? 'not evaluated' : pct(rate)} · ${evaluated} of ${total} evaluated`;
};

/** "completed", "completed with 1 error", "failed", ... */
export const statusText = (run) =>
  run.status === 'completed' && run.progress.errors
    ? `completed with ${plural(run.progress.errors, 'error')}`
    : run.status;

/**
 * Why a run could not be evaluated (exit 2), or null: it did not complete, a conversation ended in
 * error (the pass rate would rest on fewer answers than were asked), or nothing was graded.
 */
export const notEvaluatedReason = (run) => {
  if (run.status !== 'completed') return `the run ${run.status}${run.error ? `: ${run.error}` : ''}`;
  if (run.progress.errors > 0) return `${plural(run.progress.errors, 'conversation')} could not be evaluated`;
  if (run.progress.passed + run.progress.failed === 0) return 'no conversation was graded';
  return null;
};

const xml = (text) =>
  String(text ?? '')
    // Characters XML 1.0 cannot hold at all are dropped.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

const seconds = (from, to) => {
  const ms = Date.parse(to ?? '') - Date.parse(from ?? '');
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0.000';
};

const caseSeconds = (durationMs) => (Number.isFinite(durationMs) ? (durationMs / 1000).toFixed(3) : '0.000');

const properties = (pairs) =>
  `    <properties>\n${pairs
    .map(([key, value]) => `      <property name="${key}" value="${xml(value)}"/>`)
    .join('\n')}\n    </properties>`;

/** A run's testsuite: one testcase per conversation, and one per conversation the run never reached. */
const runSuite = (target, results) => {
  const { run, conversations } = results;
  const cases = conversations.map((item) => {
    const name = `${CATEGORY[item.category] ?? item.category} v${item.variation}: ${item.originalQuestion}`;
    const open = `    <testcase classname="${xml(`switchboard.${target}.${item.category}`)}" name="${xml(name)}" time="${caseSeconds(item.durationMs)}">`;
    const transcript = item.transcript
      .map((message) => `${message.role === 'user' ? 'User' : 'Agent'}: ${message.content}`)
      .join('\n');
    if (item.outcome === 'failed') {
      return `${open}\n      <failure message="${xml(item.reasoning)}" type="judge">${xml(`Asked: ${item.question}\nCriteria: ${item.successCriteria}\n\n${transcript}`)}</failure>\n    </testcase>`;
    }
    if (item.outcome === 'error') {
      return `${open}\n      <error message="${xml(item.error)}" type="${xml(item.errorCode ?? 'error')}">${xml(transcript)}</error>\n    </testcase>`;
    }
    return `${open}</testcase>`;
  });
  // A run that stopped (failed or cancelled) left conversations unrun: each is an error here, so
  // the file counts every conversation the run was asked for.
  const missing = Math.max(0, run.progress.total - conversations.length);
  const why = `Not run: the run ${run.status}${run.error ? `: ${run.error}` : ''}`;
  for (let index = 0; index < missing; index += 1) {
    cases.push(
      `    <testcase classname="${xml(`switchboard.${target}.not-run`)}" name="${xml(`Not run ${index + 1} of ${missing}`)}" time="0.000">\n      <error message="${xml(why)}" type="NOT_RUN"/>\n    </testcase>`,
    );
  }
  const failures = conversations.filter((item) => item.outcome === 'failed').length;
  const errors = conversations.filter((item) => item.outcome === 'error').length + missing;
  const suite = `  <testsuite name="${xml(`${run.name} · ${target}`)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(run.createdAt, run.finishedAt)}" timestamp="${xml(run.createdAt)}">
${properties([
  ['runId', run.id],
  ['testingModel', run.testingModel],
  ['offline', String(run.offline)],
  ['status', run.status],
  ['passRate', run.progress.passRate ?? ''],
  ['evaluated', run.progress.passed + run.progress.failed],
  ['total', run.progress.total],
  ['summary', `Pass rate ${rateText(run.progress)}`],
])}
${cases.join('\n')}
  </testsuite>`;
  return { suite, tests: cases.length, failures, errors };
};

/** The testsuite of a target whose run never started: one testcase in error with the reason. */
const notStartedSuite = (target, reason) => ({
  suite: `  <testsuite name="${xml(target)}" tests="1" failures="0" errors="1" skipped="0" time="0.000">
${properties([
  ['status', 'not started'],
  ['summary', 'Pass rate not evaluated · 0 evaluated'],
])}
    <testcase classname="${xml(`switchboard.${target}`)}" name="Start the run" time="0.000">
      <error message="${xml(reason)}" type="NOT_STARTED"/>
    </testcase>
  </testsuite>`,
  tests: 1,
  failures: 0,
  errors: 1,
});

/**
 * One testsuite per target: its run's conversations (and those it never reached), or, for a run
 * that never started, one testcase in error saying why.
 */
export const junitXml = (outcomes) => {
  const suites = outcomes.map((item) =>
    item.results ? runSuite(item.target, item.results) : notStartedSuite(item.target, item.error ?? 'not started'),
  );
  const sum = (key) => suites.reduce((total, suite) => total + suite[key], 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="switchboard eval" tests="${sum('tests')}" failures="${sum('failures')}" errors="${sum('errors')}">
${suites.map((suite) => suite.suite).join('\n')}
</testsuites>
`;
};

const md = (text) => String(text ?? '').replace(/([\\`*_[\]<>|])/g, '\\$1');

/**
 * A Markdown summary for a pull request comment: the verdict, each target's pass rate with "n of
 * m evaluated", its failures and errors by category, and a link to the report.
 */
export const markdownSummary = (outcomes, verdicts, { failUnder, base }) => {
  const icon = { 0: '✅', 1: '❌', 2: '⚠️' };
  const worst = Math.max(0, ...verdicts.map((verdict) => verdict.exit));
  const heading = { 0: 'passed', 1: 'below the threshold', 2: 'could not be evaluated' }[worst];
  const lines = [`## ${icon[worst]} Switchboard evaluation ${heading}`, '', `Threshold: ${failUnder}%`, ''];
  outcomes.forEach((item, index) => {
    const verdict = verdicts[index];
    lines.push(`### ${icon[verdict.exit]} ${md(item.target)}`, '');
    if (!item.results) {
      lines.push(`Could not run: ${md(item.error)}`, '');
      return;
    }
    const { run, categories } = item.results;
    lines.push(
      `**Pass rate ${rateText(run.progress)}** (${run.progress.passed} passed, ${run.progress.failed} failed, ${plural(run.progress.errors, 'error')}) · ${statusText(run)}${run.offline ? ' · offline model, not a real language model' : ''}`,
      '',
    );
    if (verdict.reason)
      lines.push(`${verdict.exit === EXIT.belowThreshold ? 'Failed' : 'Not evaluated'}: ${md(verdict.reason)}.`, '');
    const failing = categories.filter((category) => category.failed || category.errors);
    if (failing.length) {
      lines.push(
        'Failures by category:',
        '',
        '| Category | Failed | Errors | Pass rate |',
        '| --- | --- | --- | --- |',
      );
      for (const category of failing) {
        lines.push(
          `| ${CATEGORY[category.category] ?? category.category} | ${category.failed} | ${category.errors} | ${rateText(category)} |`,
        );
      }
      lines.push('');
    }
    lines.push(`[Open the report](${base}/new-evaluation/results/${encodeURIComponent(run.id)})`, '');
  });
  return `${lines.join('\n').trimEnd()}\n`;
};

/** The comparison table of several targets run on one template. */
export const comparisonTable = (entries) => {
  const header = ['Target', 'Passed', 'Failed', 'Errors', 'Pass rate', 'Status'];
  const rows = entries.map(({ target, results }) => {
    const { run } = results;
    return [
      `${target}${run.offline ? ' (offline model)' : ''}`,
      String(run.progress.passed),
      String(run.progress.failed),
      String(run.progress.errors),
      rateText(run.progress),
      statusText(run),
    ];
  });
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index].length)));
  const line = (cells) => cells.map((cell, index) => cell.padEnd(widths[index])).join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
};
