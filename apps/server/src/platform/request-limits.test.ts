import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createRequestCounts, WINDOW_MS } from './request-counts';

/**
 * The request limits of the public and API-key endpoints, each group attacked from an address of
 * its own: the vendors' webhooks and media files, Meta's verify-token handshake, share links, API
 * key guesses on /mcp and /v1, a valid key's own limit, and a public route without a declaration.
 */
const LIMITS = {
  PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: '3',
  WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE: '5',
  API_ADDRESS_RATE_LIMIT_PER_MINUTE: '4',
  API_KEY_RATE_LIMIT_PER_MINUTE: '3',
  FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE: '2',
  CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE: '2',
};

let t: TestApp;
let cookie: string;
let subaccountId: string;

/** Counts are kept per minute: a group of requests is not split across two minutes. */
const awayFromWindowEdge = async () => {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 50));
};

const from = (remoteAddress: string, options: InjectOptions) => t.app.inject({ ...options, remoteAddress });

/** Sends `count` requests one after another and answers their statuses. */
const statuses = async (count: number, send: () => Promise<LightMyRequestResponse>) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await send()).statusCode);
  return seen;
};

const expectRefused = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json().error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
  expect(response.json().error.support_id).toMatch(/^[0-9a-f]{32}$/);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
};

const newKey = async () => {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie, 'x-subaccount-id': subaccountId },
    payload: { name: `Key ${randomBytes(3).toString('hex')}` },
  });
  expect(created.statusCode).toBe(201);
  return created.json().key as string;
};

const twilio = (address: string) =>
  from(address, {
    method: 'POST',
    url: '/api/webhooks/twilio/con_doesnotexist',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' },
    payload: 'MessageSid=SM1&From=%2B15555550100&Body=hi',
  });
const mcp = (address: string, bearer?: string) =>
  from(address, {
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
const models = (address: string, bearer: string) =>
  from(address, { url: '/v1/models', headers: { authorization: `Bearer ${bearer}` } });

beforeAll(async () => {
  t = await startTestApp(LIMITS);
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Limits Agency',
    owner: { email: 'owner@limits.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  cookie = await t.cookieFor(agency.ownerId);
}, 60_000);
afterAll(() => t?.close());

describe('Twilio and Meta webhooks and media files', () => {
  it('allow a high number of calls per address, failed or not, then answer 429', async () => {
    await awayFromWindowEdge();
    // Failures are not held against a vendor's address (it carries every customer's calls).
    expect(await statuses(5, () => twilio('198.51.100.1'))).toEqual([404, 404, 404, 404, 404]);
    expectRefused(await twilio('198.51.100.1'));
    expect((await twilio('198.51.100.2')).statusCode).toBe(404);
  });

  it('count Meta deliveries and media files in the same allowance of the address', async () => {
    await awayFromWindowEdge();
    const address = '198.51.100.3';
    const meta = () =>
      from(address, {
        method: 'POST',
        url: '/api/webhooks/meta/app',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
        payload: { object: 'instagram', entry: [] },
      });
    const media = () => from(address, { url: '/api/media/med_doesnotexist0000000000' });
    expect(await statuses(3, meta)).toEqual([403, 403, 403]);
    expect(await statuses(2, media)).toEqual([404, 404]);
    expectRefused(await media());
    expectRefused(await meta());
  });
});

describe("Meta's verify-token handshake", () => {
  it('refuses an address after its wrong verify tokens, before looking at the next one', async () => {
    await awayFromWindowEdge();
    const guess = (address: string, url: string) =>
      from(address, { url: `${url}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=123` });
    expect((await guess('198.51.100.10', '/api/webhooks/meta/app')).statusCode).toBe(403);
    expect((await guess('198.51.100.10', '/api/webhooks/meta/con_doesnotexist')).statusCode).toBe(404);
    expectRefused(await guess('198.51.100.10', '/api/webhooks/meta/app'));
    expectRefused(await guess('198.51.100.10', '/api/webhooks/meta/con_doesnotexist'));
    expect((await guess('198.51.100.11', '/api/webhooks/meta/app')).statusCode).toBe(403);
  });
});

describe('share links of evaluation reports', () => {
  it('refuses an address after its wrong tokens', async () => {
    await awayFromWindowEdge();
    const guess = (address: string) =>
      from(address, { url: `/api/evaluation/shared/${randomBytes(8).toString('hex')}` });
    expect(await statuses(2, () => guess('198.51.100.20'))).toEqual([404, 404]);
    expectRefused(await guess('198.51.100.20'));
    expect((await guess('198.51.100.21')).statusCode).toBe(404);
  });
});

describe('API keys on /mcp and /v1', () => {
  it('refuses an address after its wrong keys, whatever the route, even with a valid key', async () => {
    await awayFromWindowEdge();
    const key = await newKey();
    const guesser = '198.51.100.30';
    expect((await mcp(guesser, 'sk_sb_guess-one')).statusCode).toBe(401);
    expect((await models(guesser, 'sk_sb_guess-two')).statusCode).toBe(401);
    expectRefused(await models(guesser, 'sk_sb_guess-three'));
    expectRefused(await mcp(guesser, key));
    expect((await models('198.51.100.31', key)).statusCode).toBe(200);
  });

  it('limits a valid key per minute, from any address and on any route', async () => {
    await awayFromWindowEdge();
    const key = await newKey();
    expect((await models('198.51.100.40', key)).statusCode).toBe(200);
    expect((await mcp('198.51.100.41', key)).statusCode).toBe(200);
    expect(
      (await from('198.51.100.42', { url: '/api/api-keys', headers: { authorization: `Bearer ${key}` } })).statusCode,
    ).toBe(200);
    const over = await models('198.51.100.43', key);
    expectRefused(over);
    expect(over.json().error.message).toContain('API key');
    expect((await models('198.51.100.43', await newKey())).statusCode).toBe(200);
  });

  it('limits the calls of an address, with or without a key', async () => {
    await awayFromWindowEdge();
    expect(await statuses(4, () => mcp('198.51.100.50'))).toEqual([401, 401, 401, 401]);
    expectRefused(await mcp('198.51.100.50'));
    expectRefused(await models('198.51.100.50', await newKey()));
  });
});

describe('public routes', () => {
  it('limit each route without a declaration of its own per address', async () => {
    await awayFromWindowEdge();
    const plans = () => from('198.51.100.60', { url: '/api/pricing/plans' });
    expect(await statuses(3, plans)).toEqual([200, 200, 200]);
    expectRefused(await plans());
    expect((await from('198.51.100.60', { url: '/api/webhook-events' })).statusCode).toBe(200);
    expect((await from('198.51.100.61', { url: '/api/pricing/plans' })).statusCode).toBe(200);
  });

  it('keep the limits they declare (the email check)', async () => {
    await awayFromWindowEdge();
    const check = () => from('198.51.100.62', { url: '/api/auth/check-user?email=someone%40example.com' });
    expect(await statuses(2, check)).toEqual([200, 200]);
    expectRefused(await check());
  });

  it('never limit /api/health', async () => {
    const answers = await statuses(10, () => from('198.51.100.63', { url: '/api/health' }));
    expect(answers.every((status) => status === 200)).toBe(true);
  });
});

describe.runIf(process.env.REDIS_URL)('with Redis', () => {
  it('shares the limits between app processes', async () => {
    await awayFromWindowEdge();
    const prefix = `sbtest:${randomBytes(4).toString('hex')}:`;
    const one = await startTestApp({ ...LIMITS, REDIS_PREFIX: prefix });
    const two = await startTestApp({ ...LIMITS, REDIS_PREFIX: prefix });
    try {
      const plans = (app: TestApp) => app.app.inject({ url: '/api/pricing/plans', remoteAddress: '198.51.100.70' });
      expect((await plans(one)).statusCode).toBe(200);
      expect((await plans(two)).statusCode).toBe(200);
      expect((await plans(one)).statusCode).toBe(200);
      expectRefused(await plans(two));
      expectRefused(await plans(one));
    } finally {
      await one.close();
      await two.close();
    }
  }, 60_000);
});

describe('counts of processes sharing a PostgreSQL database without Redis', () => {
  it('are written to the database and read back by every process', async () => {
    await awayFromWindowEdge();
    const deps = { ...t.deps, redis: null };
    const one = createRequestCounts(deps, 'database');
    const two = createRequestCounts(deps, 'database');
    try {
      const name = `a:shared:${randomBytes(4).toString('hex')}`;
      expect(await one.increment([name])).toEqual([1]);
      expect(await one.increment([name])).toEqual([2]);
      expect(await two.increment([name])).toEqual([1]);
      await one.sync();
      await two.sync();
      // The second process wrote after the first: it knows all three.
      expect(await two.increment([name])).toEqual([4]);
      // The first learns them when it next writes its own.
      expect(await one.increment([name])).toEqual([3]);
      await one.sync();
      expect(await one.increment([name])).toEqual([5]);
    } finally {
      one.stop();
      two.stop();
    }
  });
});
