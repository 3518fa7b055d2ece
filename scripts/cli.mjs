#!/usr/bin/env node
/**
 * The Switchboard command line. It runs evaluations, so an agency can gate prompt changes in CI:
 *
 *   npx switchboard eval run --template <templateId> --agent <agentId> --fail-under <percent>
 *
 * Talks to a running server: SWITCHBOARD_URL (default http://localhost:3000) with a platform API key
 * in SWITCHBOARD_API_KEY (sent as Authorization: Bearer). Prints each finished conversation, then
 * the pass rate overall and per category. Several --agent and --model targets run the template
 * against each and print a comparison table. Exit code: 0 every run at or above the threshold,
 * 1 a run below it, 2 a run that could not be evaluated (not started, not completed, or with
 * conversations that ended in error).
 */
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { CATEGORY, comparisonTable, EXIT, junitXml, notEvaluatedReason, pct } from './cli-eval-report.mjs';

const USAGE = `Usage: switchboard eval run --template <id> (--agent <id> | --model <model>)... [--fail-under <percent>]
                          [--testing-model <model>] [--junit <file>] [--json] [--url <url>]

  --agent, --model  the agent or model under test; repeat to compare several in one call
  --testing-model   the model that plays the user and judges (default: the template's)
  --fail-under      the lowest pass rate that passes, 0-100 (default 0)
  --junit           also write the results as JUnit XML to this file
  --json            print the results as JSON instead of text

Exit codes: 0 passed, 1 a pass rate below --fail-under, 2 a run that could not be evaluated.

Environment:
  SWITCHBOARD_URL      the server (default http://localhost:3000)
  SWITCHBOARD_API_KEY  a platform API key of the agent's sub-account`;

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

const fail = (message, code = EXIT.notEvaluated) => {
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
        agent: { type: 'string', multiple: true, default: [] },
        model: { type: 'string', multiple: true, default: [] },
        'testing-model': { type: 'string' },
        'fail-under': { type: 'string', default: '0' },
        url: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const failUnder = Number(values['fail-under']);
    const targets = [
      ...values.agent.map((id) => ({ kind: 'agent', id })),
      ...values.model.map((id) => ({ kind: 'model', id })),
    ];
    if (!values.template || !targets.length) fail(`--template and an --agent or --model are required.\n\n${USAGE}`);
    if (!Number.isFinite(failUnder) || failUnder < 0 || failUnder > 100)
      fail('--fail-under must be a percent from 0 to 100.');
    return { ...values, targets, failUnder };
  } catch (error) {
    return fail(`${error.message}\n\n${USAGE}`);
  }
};

const options = parse();
const base = (options.url ?? process.env.SWITCHBOARD_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const apiKey = process.env.SWITCHBOARD_API_KEY;
if (!apiKey) fail('Set SWITCHBOARD_API_KEY to a platform API key (create one on the API Key page).');
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
const several = options.targets.length > 1;

class RequestError extends Error {}

const request = async (path, init = {}) => {
  let response;
  try {
    response = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  } catch (error) {
    throw new RequestError(`Cannot reach ${base}: ${error.cause?.message ?? error.message}`);
  }
  const text = await response.text();
  let body = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = {};
  }
  if (!response.ok) {
    const error = body.error ?? {};
    throw new RequestError(
      `${error.message ?? `Request failed with status ${response.status}`} (${error.code ?? response.status}${error.support_id ? `, reference ${error.support_id.toUpperCase()}` : ''})`,
    );
  }
  return body;
};

const log = (line) => {
  if (!options.json) console.log(line);
};

const printConversation = (prefix, c, done, total) => {
  const label = { passed: 'PASS', failed: 'FAIL', error: 'ERROR' }[c.outcome] ?? 'FAIL';
  log(
    `${prefix}[${done}/${total}] ${label} ${CATEGORY[c.category]} v${c.variation}: ${c.question.slice(0, 80)}${c.outcome === 'error' ? ` (${c.error})` : ''}`,
  );
};

/**
 * Follows a run's event stream, printing each conversation once (ids in `printed`); falls back to
 * polling if the stream breaks.
 */
const follow = async (runId, prefix, printed) => {
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
        if (event.type === 'conversation' && !printed.has(event.conversation.id)) {
          printed.add(event.conversation.id);
          printConversation(prefix, event.conversation, event.run.progress.done, event.run.progress.total);
        }
        if (FINISHED.has(event.run.status)) return;
      }
    }
  } catch (error) {
    log(`${prefix}Progress stream interrupted (${error.message}); polling instead.`);
  }
  for (;;) {
    const run = await request(`/api/evaluation/runs/${runId}`);
    if (FINISHED.has(run.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
};

/** Starts and follows one target's run; a run that cannot start is reported, not thrown. */
const runTarget = async (target) => {
  const name = target.id;
  const prefix = several ? `${name} ` : '';
  try {
    const started = await request('/api/evaluation/runs/from-template', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        templateId: options.template,
        ...(target.kind === 'agent' ? { agentId: target.id } : { model: target.id }),
        ...(options['testing-model'] ? { testingModel: options['testing-model'] } : {}),
      }),
    });
    const { run } = started;
    log(
      `${prefix}Started ${run.name} (${started.runId}): ${run.progress.total} conversations, testing model ${run.testingModel}${run.offline ? ' (OFFLINE MODEL: not a real language model)' : ''}`,
    );
    const printed = new Set();
    await follow(started.runId, prefix, printed);
    const results = await request(`/api/evaluation/runs/${started.runId}/results`);
    // Conversations that finished before the stream was open are printed from the results.
    for (const c of results.conversations) {
      if (printed.has(c.id)) continue;
      printed.add(c.id);
      printConversation(prefix, c, printed.size, results.run.progress.total);
    }
    return { target: name, results };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    console.error(`${prefix}Could not run: ${error.message}`);
    return { target: name, results: null, error: error.message };
  }
};

const outcomes = await Promise.all(options.targets.map(runTarget));
const evaluated = outcomes.filter((item) => item.results);

let exitCode = EXIT.passed;
const verdicts = outcomes.map((item) => {
  if (!item.results) return { target: item.target, exit: EXIT.notEvaluated, reason: item.error };
  const { run } = item.results;
  const problem = notEvaluatedReason(run);
  if (problem) return { target: item.target, exit: EXIT.notEvaluated, reason: problem };
  const rate = (run.progress.passRate ?? 0) * 100;
  if (rate < options.failUnder) {
    return {
      target: item.target,
      exit: EXIT.belowThreshold,
      reason: `pass rate ${rate.toFixed(1)}% is below ${options.failUnder}%`,
    };
  }
  return { target: item.target, exit: EXIT.passed, reason: null };
});
for (const verdict of verdicts) exitCode = Math.max(exitCode, verdict.exit);

if (options.junit && evaluated.length) writeFileSync(options.junit, junitXml(evaluated));

if (options.json) {
  console.log(
    JSON.stringify(
      {
        exitCode,
        failUnder: options.failUnder,
        runs: outcomes.map((item, index) => ({
          target: item.target,
          run: item.results?.run ?? null,
          categories: item.results?.categories ?? [],
          error: item.error ?? verdicts[index]?.reason ?? null,
        })),
      },
      null,
      2,
    ),
  );
} else {
  for (const { target, results } of evaluated) {
    const { run } = results;
    log('');
    if (several) log(target);
    if (run.offline) log('Offline model: deterministic answers and a word-overlap check, not a real language model.');
    for (const category of results.categories) {
      log(
        `${CATEGORY[category.category].padEnd(16)} ${String(category.passed).padStart(4)}/${category.passed + category.failed}  ${pct(category.passRate)}${category.errors ? `  (${category.errors} errors)` : ''}`,
      );
    }
    log(
      `Pass rate ${pct(run.progress.passRate)} (${run.progress.passed} passed, ${run.progress.failed} failed, ${run.progress.errors} errors), threshold ${options.failUnder}%`,
    );
    log(`Report: ${base}/new-evaluation/results/${run.id}`);
  }
  if (several) {
    log('');
    log(comparisonTable(evaluated));
  }
  if (options.junit && evaluated.length) log(`JUnit XML written to ${options.junit}`);
}

for (const verdict of verdicts) {
  if (verdict.exit === EXIT.notEvaluated)
    console.error(`NOT EVALUATED${several ? ` ${verdict.target}` : ''}: ${verdict.reason}.`);
  if (verdict.exit === EXIT.belowThreshold)
    console.error(`FAILED${several ? ` ${verdict.target}` : ''}: ${verdict.reason}.`);
}
if (exitCode === EXIT.passed) log('PASSED');
process.exit(exitCode);
