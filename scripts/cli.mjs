#!/usr/bin/env node
/**
 * The Switchboard command line. Today it runs evaluations, so an agency can gate prompt changes in CI:
 *
 *   npx switchboard eval run --template <templateId> --agent <agentId> --fail-under <percent>
 *
 * Talks to a running server: SWITCHBOARD_URL (default http://localhost:3000) with a platform API key
 * in SWITCHBOARD_API_KEY (sent as Authorization: Bearer). Prints each finished conversation, then
 * the pass rate overall and per category. Exit code: 0 at or above the threshold, 1 below it,
 * 2 when the run could not be started or did not complete.
 */
import process from 'node:process';
import { parseArgs } from 'node:util';

const USAGE = `Usage: switchboard eval run --template <id> --agent <id> [--fail-under <percent>] [--url <url>] [--json]

Environment:
  SWITCHBOARD_URL      the server (default http://localhost:3000)
  SWITCHBOARD_API_KEY  a platform API key of the agent's sub-account`;

const CATEGORY = { custom: 'Custom', compliance: 'Compliance', promptHacking: 'Prompt hacking' };
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

const fail = (message, code = 2) => {
  console.error(message);
  process.exit(code);
};

const parse = () => {
  const [group, command, ...rest] = process.argv.slice(2);
  if (group !== 'eval' || command !== 'run') fail(USAGE);
  try {
    const { values } = parseArgs({
      args: rest,
      options: {
        template: { type: 'string' },
        agent: { type: 'string' },
        'fail-under': { type: 'string', default: '0' },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const failUnder = Number(values['fail-under']);
    if (!values.template || !values.agent) fail(`--template and --agent are required.\n\n${USAGE}`);
    if (!Number.isFinite(failUnder) || failUnder < 0 || failUnder > 100)
      fail('--fail-under must be a percent from 0 to 100.');
    return { ...values, failUnder };
  } catch (error) {
    return fail(`${error.message}\n\n${USAGE}`);
  }
};

const options = parse();
const base = (options.url ?? process.env.SWITCHBOARD_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const apiKey = process.env.SWITCHBOARD_API_KEY;
if (!apiKey) fail('Set SWITCHBOARD_API_KEY to a platform API key (create one on the API Key page).');
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };

const request = async (path, init = {}) => {
  let response;
  try {
    response = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  } catch (error) {
    fail(`Cannot reach ${base}: ${error.cause?.message ?? error.message}`);
  }
  const text = await response.text();
  const body = text ? JSON.parse(text) : {};
  if (!response.ok) {
    const error = body.error ?? {};
    fail(
      `${error.message ?? `Request failed with status ${response.status}`} (${error.code ?? response.status}${error.support_id ? `, reference ${error.support_id.toUpperCase()}` : ''})`,
    );
  }
  return body;
};

const pct = (rate) => (rate == null ? '–' : `${(rate * 100).toFixed(1)}%`);
const log = (line) => {
  if (!options.json) console.log(line);
};

const started = await request('/api/evaluation/runs/from-template', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ templateId: options.template, agentId: options.agent }),
});
const runId = started.runId;
log(
  `Started ${started.run.name} (${runId}): ${started.run.progress.total} conversations, testing model ${started.run.testingModel}`,
);

/** Follows the run's event stream; falls back to polling if the stream breaks. */
const follow = async () => {
  try {
    const response = await fetch(`${base}/api/evaluation/runs/${runId}/events`, {
      headers: { ...headers, accept: 'text/event-stream' },
    });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf('\n\n');
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        if (event.type === 'conversation') {
          const c = event.conversation;
          const { done, total } = event.run.progress;
          log(
            `[${done}/${total}] ${c.passed ? 'PASS' : 'FAIL'} ${CATEGORY[c.category]} v${c.variation}: ${c.question.slice(0, 80)}`,
          );
        }
        if (FINISHED.has(event.run.status)) return;
      }
    }
  } catch (error) {
    log(`Progress stream interrupted (${error.message}); polling instead.`);
  }
  for (;;) {
    const run = await request(`/api/evaluation/runs/${runId}`);
    if (FINISHED.has(run.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
};

await follow();
const results = await request(`/api/evaluation/runs/${runId}/results`);
const { run } = results;
if (options.json) console.log(JSON.stringify({ run, categories: results.categories }, null, 2));
log('');
for (const category of results.categories) {
  log(
    `${CATEGORY[category.category].padEnd(16)} ${String(category.passed).padStart(4)}/${category.total}  ${pct(category.passRate)}`,
  );
}
log(
  `Pass rate ${pct(run.progress.passRate)} (${run.progress.passed} passed, ${run.progress.failed} failed), threshold ${options.failUnder}%`,
);
log(`Report: ${base}/new-evaluation/results/${runId}`);
if (run.status !== 'completed') fail(`The run ${run.status}${run.error ? `: ${run.error}` : ''}.`);
const rate = (run.progress.passRate ?? 0) * 100;
if (rate < options.failUnder) {
  console.error(`FAILED: pass rate ${rate.toFixed(1)}% is below ${options.failUnder}%.`);
  process.exit(1);
}
log('PASSED');
