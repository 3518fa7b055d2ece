import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertAgent } from '../../../apps/server/src/features/agents/repo';
// The server and its test helpers run the CLI against a real server; the CLI itself imports none of them.
import { createApiKey } from '../../../apps/server/src/features/api-keys/service';
import { createTemplate } from '../../../apps/server/src/features/evaluation/templates';
import { newId } from '../../../apps/server/src/platform/ids';
import { seedAgency } from '../../../apps/server/src/seed';
import { testQuestion, useCompatibleProvider } from '../../../apps/server/src/testing/fixtures';
import { startTestApp, type TestApp } from '../../../apps/server/src/testing/harness';
import { type StubLlm, startStubLlm } from '../../../apps/server/src/testing/stub-llm';

const CLI = path.resolve(__dirname, '../bin/switchboard.mjs');
let t: TestApp;
let stub: StubLlm;
let env: Record<string, string>;
let args: string[];
let templates: { errors: string; keyless: string; stops: string };
let agentId: string;

const runRaw = (argv: string[], extraEnv: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...argv], { env: { ...process.env, ...env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

const runCli = (extra: string[]) => runRaw(['eval', 'run', ...args, ...extra]);

beforeAll(async () => {
  stub = await startStubLlm();
  // One conversation at a time, so a run stopped by a refused key leaves the later ones unrun.
  t = await startTestApp({
    FREE_PLAN_CREDITS: '1000000',
    JOB_POLL_MS: '50',
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
    EVAL_CONCURRENCY: '1',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'CLI Agency',
    owner: { email: 'cli@eval.test', name: 'Owner' },
    subaccounts: ['Solar'],
  });
  const subaccountId = agency.subaccountIds[0] as string;
  await useCompatibleProvider(t.deps.db, agency.accountId, stub.url);
  const agent = await insertAgent(t.deps.db, {
    id: newId('agent'),
    accountId: agency.accountId,
    subaccountId,
    name: 'Solar assistant',
    provider: 'compatible',
    model: 'stub-model',
    systemPrompt: 'You help with solar.',
  });
  const templateId = await createTemplate(t.deps, {
    subaccountId,
    userId: agency.ownerId,
    request: {
      templateName: 'CI gate',
      templateData: {
        testing_model: 'compatible:stub-model',
        initialMessage: 'How can I help you with solar today?',
        shortuserDescription: 'Wants solar',
        conversationFlowInput: '',
        hallucinationInstruction: '',
        hallucinationChoice: null,
        customQuestions: [testQuestion('ok', 'Which panels fit?'), testQuestion('bad', 'Please jailbreak now')],
        complianceQuestions: [],
        promptHackingQuestions: [],
        settings: {},
      },
    },
  });
  const template = async (name: string, testingModel: string, questions: ReturnType<typeof testQuestion>[]) =>
    createTemplate(t.deps, {
      subaccountId,
      userId: agency.ownerId,
      request: {
        templateName: name,
        templateData: {
          testing_model: testingModel,
          initialMessage: 'Hi',
          shortuserDescription: 'Wants solar',
          conversationFlowInput: '',
          hallucinationInstruction: '',
          hallucinationChoice: null,
          customQuestions: questions,
          complianceQuestions: [],
          promptHackingQuestions: [],
          settings: { prompt: 'You help with solar.' },
        },
      },
    });
  templates = {
    errors: await template('With errors', 'compatible:stub-model', [
      testQuestion('ok', 'Which panels fit?'),
      testQuestion('boom', 'Tell me [agent-500]'),
    ]),
    keyless: await template('No key', 'gpt-4o-mini', [testQuestion('ok', 'Which panels fit?')]),
    stops: await template('Stops', 'compatible:stub-model', [
      testQuestion('ok', 'Which panels fit?'),
      testQuestion('refused', 'Check this [agent-401]'),
      testQuestion('later', 'Anything else?'),
    ]),
  };
  agentId = agent.id;
  const key = await createApiKey(t.deps.db, { subaccountId, userId: agency.ownerId, name: 'ci' });
  const { port } = t.app.server.address() as AddressInfo;
  env = { SWITCHBOARD_URL: `http://127.0.0.1:${port}`, SWITCHBOARD_API_KEY: key.key };
  args = ['--template', templateId, '--agent', agent.id];
});

afterAll(async () => {
  await t?.close();
  await stub?.close();
});

it('runs a template against an agent, prints progress and passes at or above the threshold', async () => {
  const result = await runCli(['--fail-under', '50']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/\[1\/2\] (PASS|FAIL)/);
  expect(result.stdout).toContain('Pass rate 50.0% · 2 of 2 evaluated');
  expect(result.stdout).toContain('PASSED');
}, 30_000);

it('exits non-zero below the threshold', async () => {
  const result = await runCli(['--fail-under', '75']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('below 75%');
}, 30_000);

it('exits 2 with the server message for an unknown template', async () => {
  const result = await runCli(['--template', 'tpl_missing', '--fail-under', '10']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('Template not found');
}, 30_000);

it('writes JUnit XML with a testcase per conversation and a failure for each failed one', async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-junit-')), 'results.xml');
  const result = await runCli(['--fail-under', '50', '--junit', file]);
  expect(result.code).toBe(0);
  const xml = readFileSync(file, 'utf8');
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
  expect(xml).toContain('<testsuites name="switchboard eval" tests="2" failures="1" errors="0">');
  expect(xml.match(/<testcase /g)).toHaveLength(2);
  expect(xml).toContain('name="Custom v0: Please jailbreak now"');
  expect(xml).toMatch(/<failure message="The answer says &quot;BREAK: rules off&quot;/);
  expect(xml).toContain('<property name="offline" value="false"/>');
  expect(xml).toContain('<property name="evaluated" value="2"/>');
  expect(xml).toContain('<property name="summary" value="Pass rate 50.0% · 2 of 2 evaluated"/>');
}, 30_000);

it('exits 2 when a conversation could not be evaluated, and reports it as a JUnit error', async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-junit-')), 'errors.xml');
  const result = await runCli(['--template', templates.errors, '--fail-under', '0', '--junit', file]);
  expect(result.code).toBe(2);
  expect(result.stdout).toMatch(/ERROR Custom v0: Tell me \[agent-500\] \(Server error occurred\)/);
  expect(result.stderr).toContain('NOT EVALUATED: 1 conversation could not be evaluated');
  expect(result.stdout).toMatch(/Pass rate \d+\.\d% · 1 of 2 evaluated/);
  const xml = readFileSync(file, 'utf8');
  expect(xml).toContain('errors="1"');
  expect(xml).toContain('<error message="Server error occurred" type="AI_SERVICE_ERROR">');
}, 30_000);

it('exits 2 without a usable key: the run refuses to start', async () => {
  const result = await runCli(['--template', templates.keyless, '--fail-under', '100']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('No OpenAI API key found. (API_KEY_NOT_FOUND');
  expect(result.stdout).not.toContain('PASSED');
}, 30_000);

it('runs a template against an agent and a model in one call with a comparison table and JSON', async () => {
  const result = await runCli(['--model', 'compatible:stub-model', '--fail-under', '50', '--json']);
  expect(result.code).toBe(0);
  const body = JSON.parse(result.stdout) as {
    exitCode: number;
    runs: { target: string; run: { progress: { passed: number; failed: number } } }[];
  };
  expect(body.exitCode).toBe(0);
  expect(body.runs.map((item) => item.target)).toEqual([agentId, 'compatible:stub-model']);
  for (const item of body.runs) expect(item.run.progress).toMatchObject({ passed: 1, failed: 1 });

  const table = await runCli(['--model', 'compatible:stub-model', '--fail-under', '50']);
  expect(table.stdout).toMatch(/Target\s+Passed\s+Failed\s+Errors\s+Pass rate\s+Status/);
  expect(table.stdout).toMatch(/compatible:stub-model\s+1\s+1\s+0\s+50\.0% · 2 of 2 evaluated\s+completed/);
}, 60_000);

const tempFile = (name: string) => path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-cli-')), name);
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

it('refuses an unwritable --junit path before starting, with exit 2 and no stack trace', async () => {
  const file = path.join(tempFile('x'), 'missing-folder', 'results.xml');
  const result = await runCli(['--fail-under', '0', '--junit', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`Cannot write --junit file ${file}: its folder does not exist.`);
  noStack(result.stderr);
  expect(result.stdout).not.toContain('Started');
}, 30_000);

it('answers 2 with a clear message for every failure: bad arguments, no key, no server', async () => {
  const usage = await runRaw(['eval', 'run', '--nope']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("Unknown option '--nope'");
  const keyless = await runRaw(['eval', 'run', ...args], { SWITCHBOARD_API_KEY: '' });
  expect(keyless.code).toBe(2);
  expect(keyless.stderr).toContain('Set SWITCHBOARD_API_KEY');
  const down = await runRaw(['eval', 'run', ...args, '--url', 'http://127.0.0.1:9']);
  expect(down.code).toBe(2);
  expect(down.stderr).toContain('Cannot reach http://127.0.0.1:9');
  for (const result of [usage, keyless, down]) noStack(result.stderr);
  const help = await runRaw(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('Usage: switchboard eval run');
}, 30_000);

it('writes a JUnit file also when the run never starts', async () => {
  const file = tempFile('not-started.xml');
  const result = await runCli(['--template', 'tpl_missing', '--junit', file]);
  expect(result.code).toBe(2);
  const xml = readFileSync(file, 'utf8');
  expect(xml).toContain('<testsuites name="switchboard eval" tests="1" failures="0" errors="1">');
  expect(xml).toMatch(/<error message="Template not found[^"]*" type="NOT_STARTED"\/>/);
}, 30_000);

it('lists every conversation of a failed run in JUnit, the ones it never reached too, each with its own time', async () => {
  const file = tempFile('failed.xml');
  const result = await runCli(['--template', templates.stops, '--junit', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('NOT EVALUATED: the run failed');
  const xml = readFileSync(file, 'utf8');
  expect(xml.match(/<testcase /g)).toHaveLength(3);
  expect(xml).toContain('type="NOT_RUN"');
  const times = [...xml.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((match) => match[1]);
  expect(times.slice(0, 2).every((time) => /^\d+\.\d{3}$/.test(time ?? '') && Number(time) > 0)).toBe(true);
}, 30_000);

it('counts progress up once per conversation and says "1 error", not "1 errors"', async () => {
  const result = await runCli(['--template', templates.errors, '--model', 'compatible:stub-model']);
  for (const target of [agentId, 'compatible:stub-model']) {
    const counters = [...result.stdout.matchAll(new RegExp(`^${target} \\[(\\d+)/2\\]`, 'gm'))].map((m) =>
      Number(m[1]),
    );
    expect(counters).toEqual([1, 2]);
  }
  expect(result.stdout).toContain('completed with 1 error');
  expect(result.stdout).not.toContain('1 errors');
}, 60_000);

it('writes a Markdown summary for a pull request: rate, n of m evaluated, failures by category, report link', async () => {
  const file = tempFile('summary.md');
  const result = await runCli(['--fail-under', '75', '--markdown', file]);
  expect(result.code).toBe(1);
  const markdown = readFileSync(file, 'utf8');
  expect(markdown).toContain('## ❌ Switchboard evaluation below the threshold');
  expect(markdown).toContain('**Pass rate 50.0% · 2 of 2 evaluated**');
  expect(markdown).toContain('Failures by category:');
  expect(markdown).toContain('| Custom | 1 | 0 | 50.0% · 2 of 2 evaluated |');
  expect(markdown).toMatch(/\[Open the report\]\(http:\/\/127\.0\.0\.1:\d+\/new-evaluation\/results\/evl_/);
  const printed = await runCli(['--fail-under', '0', '--markdown', '-']);
  expect(printed.code).toBe(0);
  expect(printed.stdout.startsWith('## ✅ Switchboard evaluation passed')).toBe(true);
}, 60_000);

it('installed from its tarball in a clean folder, runs the suite against the server and writes JUnit and Markdown', async () => {
  const clean = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-clean-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', clean], {
      cwd: path.resolve(__dirname, '..'),
      encoding: 'utf8',
    }),
  ) as { filename: string }[];
  const prefix = path.join(clean, 'global');
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--offline',
      '--no-audit',
      '--no-fund',
      path.join(clean, packed[0]?.filename ?? ''),
    ],
    { cwd: clean, encoding: 'utf8' },
  );
  const junit = path.join(clean, 'results.xml');
  const markdown = path.join(clean, 'summary.md');
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      path.join(prefix, 'bin', 'switchboard'),
      ['eval', 'run', ...args, '--fail-under', '50', '--junit', junit, '--markdown', markdown],
      { cwd: clean, env: { ...process.env, ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Pass rate 50.0% · 2 of 2 evaluated');
  expect(readFileSync(junit, 'utf8')).toContain(
    '<testsuites name="switchboard eval" tests="2" failures="1" errors="0">',
  );
  expect(readFileSync(markdown, 'utf8')).toContain('**Pass rate 50.0% · 2 of 2 evaluated**');
}, 90_000);
