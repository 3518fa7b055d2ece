import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../seed';
import { freePort } from '../testing/free-port';
import { startTestApp, type TestApp } from '../testing/harness';
import { hasRedisServer, startRedisServer } from '../testing/redis-server';
import { createTenantObjects } from '../testing/tenant-objects';

/**
 * With REDIS_URL set and Redis unreachable, the public widget chat, the demo chat and sign-in keep
 * answering (per-process counters and events), and /api/health says degraded. When Redis comes
 * back, the app uses it again.
 */
const stopRedis = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

let port: number;
let redis: ChildProcess | null = null;
let t: TestApp;
let widgetId: string;
let demoId: string;

const calls = () => ({
  widget: t.app.inject({
    method: 'POST',
    url: `/api/widget/${widgetId}/chat`,
    payload: { message: 'Hello?', contactIdentifier: 'preview_redis_down' },
  }),
  demo: t.app.inject({ method: 'POST', url: '/api/demo-chat', payload: { demoId, message: 'Hi there' } }),
  signIn: t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/magic-link',
    payload: { email: DEMO_AGENCY.owner.email },
  }),
});

const health = async () => (await t.app.inject({ url: '/api/health' })).json();

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not reached');
};

describe.runIf(hasRedisServer)('Redis down', () => {
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
    t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, FREE_PLAN_CREDITS: '100000' });
    const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
    const ids = await createTenantObjects(t, await t.cookieFor(agency.ownerId), agency.subaccountIds[0] as string);
    widgetId = ids.widgetId as string;
    demoId = ids.demoId as string;
    await waitFor(async () => (await health()).status === 'ok');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (redis) await stopRedis(redis);
  });

  it('keeps the widget chat, the demo chat and sign-in answering, and health says degraded', async () => {
    if (redis) await stopRedis(redis);
    redis = null;
    await waitFor(async () => (await health()).status === 'degraded');
    const health503 = await t.app.inject({ url: '/api/health' });
    expect(health503.statusCode).toBe(200);
    expect(health503.json()).toMatchObject({ status: 'degraded', redis: { ok: false }, database: { ok: true } });
    for (let round = 0; round < 3; round += 1) {
      const { widget, demo, signIn } = calls();
      const answers = await Promise.all([widget, demo, signIn]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    }
  });

  it('uses Redis again once it is back', async () => {
    redis = await startRedisServer(port);
    await waitFor(async () => (await health()).status === 'ok');
    const { widget } = calls();
    expect((await widget).statusCode).toBe(200);
  });
});
