import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { seedAgency } from '../../seed';
import { openTestDeps, startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { runModel } from '../llm/gateway';

const TOKEN = 'metrics-token-0123456789';
const rootVersion = (
  JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('operations: /metrics, health version', () => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
    off = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });

  it('is off unless METRICS_TOKEN is set, and asks for the token when it is', async () => {
    expect((await off.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    const missing = await t.app.inject({ url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('switchboard_');
  });

  it('counts requests by route pattern, model calls, credits and jobs in the Prometheus format', async () => {
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Metrics Agency',
      owner: { email: 'owner@metrics.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const agent = await seedAgent(t.deps.db, {
      accountId: agency.accountId,
      subaccountId: agency.subaccountIds[0] as string,
    });
    const cookie = await t.cookieFor(agency.ownerId);
    // Counters belong to the process, and other test files in this worker count into them too:
    // what this test adds is read as the difference from before.
    const before = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    await t.app.inject({ url: '/api/health' });
    await t.app.inject({ url: `/api/agents/${agent.id}`, headers: { cookie } });
    await t.app.inject({ url: '/api/agents/agt_missing', headers: { cookie } });
    await runModel(t.deps, {
      accountId: agency.accountId,
      choice: { provider: 'offline', model: 'offline' },
      messages: [{ role: 'user', content: 'Hello' }],
      source: 'metrics-test',
    });
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    const text = res.body;
    expect(text).toContain('# TYPE switchboard_http_requests_total counter');
    expect(text).toMatch(/switchboard_http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    const missingAgent =
      /switchboard_http_requests_total\{method="GET",route="\/api\/agents\/:agentId",status="404"\} (\d+)/;
    const countIn = (body: string) => Number(missingAgent.exec(body)?.[1] ?? 0);
    expect(countIn(text) - countIn(before)).toBe(1);
    expect(text).not.toContain(agent.id);
    expect(text).toMatch(
      /switchboard_http_request_duration_seconds_bucket\{method="GET",route="\/api\/health",le="\+Inf"\} \d+/,
    );
    expect(text).toMatch(/switchboard_model_calls_total\{outcome="ok",provider="offline",source="metrics-test"\} 1/);
    expect(text).toMatch(/switchboard_credits_spent_total\{provider="offline",source="metrics-test"\} [\d.e-]+/);
    expect(text).toContain('# TYPE switchboard_jobs gauge');
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    // Every sample line is "name{labels} value".
    for (const line of text.trim().split('\n')) {
      if (!line.startsWith('#')) expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? -?[\d.e+-]+$/);
    }
  });

  it('reports the version of the root package.json in /api/health', async () => {
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.json().version).toBe(rootVersion);
    expect(rootVersion).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('request logs', () => {
  it('writes one line per request with method, path, status and time', async () => {
    const lines: string[] = [];
    const opened = await openTestDeps();
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).trim().split('\n'));
        callback();
      },
    });
    const { app } = await buildApp({ ...opened.deps, log: pino({ level: 'info' }, stream) });
    await app.ready();
    await app.inject({ url: '/api/health?probe=1' });
    await app.close();
    await opened.close();
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLines = entries.filter((entry) => entry.url === '/api/health');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ method: 'GET', statusCode: 200 });
    expect(String(requestLines[0]?.msg)).toMatch(/^GET \/api\/health 200 [\d.]+ ms$/);
    expect(entries.some((entry) => entry.msg === 'incoming request')).toBe(false);
  }, 90_000);
});
