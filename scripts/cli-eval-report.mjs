/**
 * What `switchboard eval run` writes: the JUnit XML file for CI, the comparison table of several
 * targets, and the exit code of a set of runs.
 */

export const CATEGORY = { custom: 'Custom', compliance: 'Compliance', promptHacking: 'Prompt hacking' };

/** Exit codes, as documented in docs/features/evaluation.md. */
export const EXIT = { passed: 0, belowThreshold: 1, notEvaluated: 2 };

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
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
};

/**
 * Why a run could not be evaluated (exit 2), or null: it did not complete, a conversation ended in
 * error (the pass rate would rest on fewer answers than were asked), or nothing was graded.
 */
export const notEvaluatedReason = (run) => {
  if (run.status !== 'completed') return `the run ${run.status}${run.error ? `: ${run.error}` : ''}`;
  if (run.progress.errors > 0)
    return `${run.progress.errors} conversation${run.progress.errors === 1 ? '' : 's'} could not be evaluated`;
  if (run.progress.passed + run.progress.failed === 0) return 'no conversation was graded';
  return null;
};

/** One testsuite per run, one testcase per conversation: failures as <failure>, errors as <error>. */
export const junitXml = (entries) => {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites = entries.map(({ target, results }) => {
    const { run, conversations } = results;
    tests += conversations.length;
    const suiteFailures = conversations.filter((item) => item.outcome === 'failed').length;
    const suiteErrors = conversations.filter((item) => item.outcome === 'error').length;
    failures += suiteFailures;
    errors += suiteErrors;
    const cases = conversations.map((item) => {
      const name = `${CATEGORY[item.category] ?? item.category} v${item.variation}: ${item.originalQuestion}`;
      const open = `    <testcase classname="${xml(`switchboard.${target}.${item.category}`)}" name="${xml(name)}" time="0">`;
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
    const properties = [
      ['runId', run.id],
      ['testingModel', run.testingModel],
      ['offline', String(run.offline)],
      ['status', run.status],
      ['passRate', run.progress.passRate ?? ''],
    ]
      .map(([key, value]) => `      <property name="${key}" value="${xml(value)}"/>`)
      .join('\n');
    return `  <testsuite name="${xml(`${run.name} · ${target}`)}" tests="${conversations.length}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="0" time="${seconds(run.createdAt, run.finishedAt)}" timestamp="${xml(run.createdAt)}">
    <properties>
${properties}
    </properties>
${cases.join('\n')}
  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="switchboard eval" tests="${tests}" failures="${failures}" errors="${errors}">
${suites.join('\n')}
</testsuites>
`;
};

const pct = (rate) => (rate == null ? '–' : `${(rate * 100).toFixed(1)}%`);

/** The comparison table of several targets run on one template. */
export const comparisonTable = (entries) => {
  const header = ['Target', 'Passed', 'Failed', 'Errors', 'Pass rate', 'Status'];
  const rows = entries.map(({ target, results }) => {
    const { run } = results;
    const status =
      run.status === 'completed' && run.progress.errors ? `completed with ${run.progress.errors} errors` : run.status;
    return [
      `${target}${run.offline ? ' (offline model)' : ''}`,
      String(run.progress.passed),
      String(run.progress.failed),
      String(run.progress.errors),
      pct(run.progress.passRate),
      status,
    ];
  });
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index].length)));
  const line = (cells) => cells.map((cell, index) => cell.padEnd(widths[index])).join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
};

export { pct };
