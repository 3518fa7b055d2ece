import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { testQuestion, useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { insertAgent } from '../agents/repo';
import { createApiKey } from '../api-keys/service';
import { seedAgency } from '../tenancy/seed';
import { createTemplate } from './templates';

const CLI = path.resolve(__dirname, '../../../../../scripts/cli.mjs');
let t: TestApp;
let stub: StubLlm;
let env: Record<string, string>;
let args: string[];

const runCli = (extra: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'eval', 'run', ...args, ...extra], { env: { ...process.env, ...env } });
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

beforeAll(async () => {
  stub = await startStubLlm();
  t = await startTestApp({ FREE_PLAN_CREDITS: '1000000', JOB_POLL_MS: '50', PRIVATE_URL_ALLOWLIST: '127.0.0.1' });
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
  expect(result.stdout).toContain('Pass rate 50.0%');
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
