/**
 * The Switchboard command line. It runs evaluations, so an agency can gate prompt changes in CI:
 *
 *   switchboard eval run --template <templateId> --agent <agentId> --fail-under <percent>
 *
 * Talks to a running server: SWITCHBOARD_URL (default http://localhost:3000) with a platform API key
 * in SWITCHBOARD_API_KEY (sent as Authorization: Bearer), over Node's fetch; it needs nothing else.
 * Prints each finished conversation, then the pass rate (with "n of m evaluated") overall and per
 * category. Several --agent and --model targets run the template against each and print a
 * comparison table. Exit code: 0 every run at or above the threshold, 1 a run below it, 2 a run
 * that could not be evaluated, or anything else that kept the command from running.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CATEGORY, comparisonTable, EXIT, junitXml, markdownSummary, notEvaluatedReason, rateText } from './report.mjs';

export const USAGE = `Usage: switchboard eval run --template <id> (--agent <id> | --model <model>)... [--fail-under <percent>]
                          [--testing-model <model>] [--junit <file>] [--markdown <file>] [--json] [--url <url>]

  --agent, --model  the agent or model under test; repeat to compare several in one call
  --testing-model   the model that plays the user and judges (default: the template's)
  --fail-under      the lowest pass rate that passes, 0-100 (default 0)
  --junit           also write the results as JUnit XML to this file
  --markdown        also write a Markdown summary for a pull request comment to this file ("-": print it)
  --json            print the results as JSON instead of text

Exit codes: 0 passed, 1 a pass rate below --fail-under, 2 could not run or could not be evaluated.

Environment:
  SWITCHBOARD_URL      the server (default http://localhost:3000)
  SWITCHBOARD_API_KEY  a platform API key of the agent's sub-account`;

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/** A failure the user can act on: its message is printed as it is, with exit code 2. */
class CliError extends Error {}
class RequestError extends Error {}

const parse = (argv) => {
  const [group, command, ...rest] = argv;
  if (group === '--help' || group === '-h' || group === 'help') return { help: true };
  if (group !== 'eval' || command !== 'run') throw new CliError(USAGE);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        template: { type: 'string' },
        agent: { type: 'string', multiple: true, default: [] },
        model: { type: 'string', multiple: true, default: [] },
        'testing-model': { type: 'string' },
        'fail-under': { type: 'string', default: '0' },
        url: { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new CliError(`${error.message}\n\n${USAGE}`);
  }
  if (values.help) return { help: true };
  const failUnder = Number(values['fail-under']);
  const targets = [
    ...values.agent.map((id) => ({ kind: 'agent', id })),
    ...values.model.map((id) => ({ kind: 'model', id })),
  ];
  if (!values.template || !targets.length)
    throw new CliError(`--template and an --agent or --model are required.\n\n${USAGE}`);
  if (!Number.isFinite(failUnder) || failUnder < 0 || failUnder > 100)
    throw new CliError('--fail-under must be a percent from 0 to 100.');
  return { ...values, targets, failUnder };
};

/** Refuses, before any run starts, an output file that could not be written. */
const assertWritable = (option, file) => {
  if (!file || file === '-') return;
  const target = path.resolve(file);
  try {
    const stat = statSync(target, { throwIfNoEntry: false });
    if (stat?.isDirectory()) throw new Error('it is a directory');
    accessSync(stat ? target : path.dirname(target), constants.W_OK);
  } catch (error) {
    const reason =
      error.code === 'ENOENT'
        ? 'its folder does not exist'
        : error.code === 'EACCES'
          ? 'permission denied'
          : error.message;
    throw new CliError(`Cannot write ${option} file ${file}: ${reason}.`);
  }
};

const writeOutput = (option, file, text) => {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new CliError(
      `Cannot write ${option} file ${file}: ${error.code === 'EACCES' ? 'permission denied' : error.message}.`,
    );
  }
};

/**
 * Runs `switchboard ...` with these arguments and environment; answers the exit code. Failures it
 * can name are printed as one message (exit 2); it never exits the process itself.
 */
export const main = async (argv, env, io = { out: console.log, err: console.error }) => {
  try {
    return await run(argv, env, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return EXIT.notEvaluated;
    }
    throw error;
  }
};

const run = async (argv, env, io) => {
  const options = parse(argv);
  if (options.help) {
    io.out(USAGE);
    return EXIT.passed;
  }
  const base = (options.url ?? env.SWITCHBOARD_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  try {
    new URL(base);
  } catch {
    throw new CliError(`The server URL ${base} is not a URL (set --url or SWITCHBOARD_URL).`);
  }
  const apiKey = env.SWITCHBOARD_API_KEY;
  if (!apiKey) throw new CliError('Set SWITCHBOARD_API_KEY to a platform API key (create one on the API Key page).');
  assertWritable('--junit', options.junit);
  assertWritable('--markdown', options.markdown);
  const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
  const several = options.targets.length > 1;
  const markdownToStdout = options.markdown === '-';
  const quiet = options.json || markdownToStdout;
  const log = (line) => {
    if (!quiet) io.out(line);
  };

  const request = async (urlPath, init = {}) => {
    let response;
    try {
      response = await fetch(`${base}${urlPath}`, { ...init, headers: { ...headers, ...init.headers } });
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

  /** Prints a conversation once; the counter is how many of this run's have been printed. */
  const printer = (prefix, total) => {
    const printed = new Set();
    return {
      has: (id) => printed.has(id),
      print: (c) => {
        if (printed.has(c.id)) return;
        printed.add(c.id);
        const label = { passed: 'PASS', failed: 'FAIL', error: 'ERROR' }[c.outcome] ?? 'FAIL';
        log(
          `${prefix}[${printed.size}/${total}] ${label} ${CATEGORY[c.category] ?? c.category} v${c.variation}: ${c.question.slice(0, 80)}${c.outcome === 'error' ? ` (${c.error})` : ''}`,
        );
      },
    };
  };

  /** Follows a run's event stream, printing each conversation once; polls if the stream breaks. */
  const follow = async (runId, prefix, out) => {
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
          if (event.type === 'conversation') out.print(event.conversation);
          if (FINISHED.has(event.run?.status)) return;
        }
      }
    } catch (error) {
      log(`${prefix}Progress stream interrupted (${error.message}); polling instead.`);
    }
    for (;;) {
      const found = await request(`/api/evaluation/runs/${runId}`);
      if (FINISHED.has(found.status)) return;
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
      const first = started.run;
      log(
        `${prefix}Started ${first.name} (${started.runId}): ${first.progress.total} conversations, testing model ${first.testingModel}${first.offline ? ' (OFFLINE MODEL: not a real language model)' : ''}`,
      );
      const out = printer(prefix, first.progress.total);
      await follow(started.runId, prefix, out);
      const results = await request(`/api/evaluation/runs/${started.runId}/results`);
      // Conversations that finished before the stream was open are printed from the results.
      for (const c of results.conversations) out.print(c);
      return { target: name, results };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      io.err(`${prefix}Could not run: ${message}`);
      return { target: name, results: null, error: message };
    }
  };

  const outcomes = await Promise.all(options.targets.map(runTarget));
  const evaluated = outcomes.filter((item) => item.results);

  const verdicts = outcomes.map((item) => {
    if (!item.results) return { target: item.target, exit: EXIT.notEvaluated, reason: item.error };
    const { run: found } = item.results;
    const problem = notEvaluatedReason(found);
    if (problem) return { target: item.target, exit: EXIT.notEvaluated, reason: problem };
    const rate = (found.progress.passRate ?? 0) * 100;
    if (rate < options.failUnder) {
      return {
        target: item.target,
        exit: EXIT.belowThreshold,
        reason: `pass rate ${rate.toFixed(1)}% (${found.progress.passed + found.progress.failed} of ${found.progress.total} evaluated) is below ${options.failUnder}%`,
      };
    }
    return { target: item.target, exit: EXIT.passed, reason: null };
  });
  let exitCode = Math.max(EXIT.passed, ...verdicts.map((verdict) => verdict.exit));

  if (options.junit) writeOutput('--junit', options.junit, junitXml(outcomes));
  const markdown = options.markdown
    ? markdownSummary(outcomes, verdicts, { failUnder: options.failUnder, base })
    : null;
  if (markdown && !markdownToStdout) writeOutput('--markdown', options.markdown, markdown);

  if (options.json) {
    io.out(
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
  } else if (markdownToStdout) {
    io.out(markdown.trimEnd());
  } else {
    for (const { target, results } of evaluated) {
      const { run: found } = results;
      log('');
      if (several) log(target);
      if (found.offline)
        log('Offline model: deterministic answers and a word-overlap check, not a real language model.');
      for (const category of results.categories) {
        log(
          `${(CATEGORY[category.category] ?? category.category).padEnd(16)} ${String(category.passed).padStart(4)}/${category.passed + category.failed}  ${rateText(category)}${category.errors ? `  (${category.errors} error${category.errors === 1 ? '' : 's'})` : ''}`,
        );
      }
      log(
        `Pass rate ${rateText(found.progress)} (${found.progress.passed} passed, ${found.progress.failed} failed, ${found.progress.errors} error${found.progress.errors === 1 ? '' : 's'}), threshold ${options.failUnder}%`,
      );
      log(`Report: ${base}/new-evaluation/results/${found.id}`);
    }
    if (several && evaluated.length) {
      log('');
      log(comparisonTable(evaluated));
    }
    if (options.junit) log(`JUnit XML written to ${options.junit}`);
    if (options.markdown) log(`Markdown summary written to ${options.markdown}`);
  }

  for (const verdict of verdicts) {
    if (verdict.exit === EXIT.notEvaluated)
      io.err(`NOT EVALUATED${several ? ` ${verdict.target}` : ''}: ${verdict.reason}.`);
    if (verdict.exit === EXIT.belowThreshold)
      io.err(`FAILED${several ? ` ${verdict.target}` : ''}: ${verdict.reason}.`);
  }
  if (exitCode === EXIT.passed) log('PASSED');
  exitCode = Math.min(exitCode, EXIT.notEvaluated);
  return exitCode;
};
