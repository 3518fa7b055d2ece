import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';

let t: TestApp;
let cookie: string;
let accountId: string;

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: '4096' });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Input Agency',
    owner: { email: 'owner@input.test', name: 'Owner' },
    subaccounts: ['Client'],
  });
  accountId = agency.accountId;
  cookie = await t.cookieFor(agency.ownerId);
});
afterAll(() => t.close());

const expectEnvelope = (body: string, status: number) => {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  const parsed = JSON.parse(body);
  expect(parsed.error.code).toMatch(/^[A-Z_]+$/);
  expect(parsed.error.support_id).toMatch(/^[0-9a-f]{32}$/);
};

describe('bad input', () => {
  it('malformed JSON is a 400 envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"accountId": ',
    });
    expectEnvelope(response.body, response.statusCode);
    expect(response.statusCode).toBe(400);
  });

  it('an oversized body is a 413 envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ accountId, name: 'x'.repeat(10_000) }),
    });
    expect(response.statusCode).toBe(413);
    expectEnvelope(response.body, response.statusCode);
  });

  it('an unknown API route is a 404 envelope', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expectEnvelope(response.body, response.statusCode);
  });

  it('wrong types and missing fields name the field and write nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            accountId: fc.oneof(
              fc.anything(),
              fc.string().map((text) => `${text}\u0000`),
            ),
            name: fc.oneof(
              fc.integer(),
              fc.constant(''),
              fc.constant(null),
              fc.array(fc.string()),
              // U+0000, which PostgreSQL refuses in text, anywhere in an otherwise valid name.
              fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}\u0000${after}`),
            ),
          },
          { requiredKeys: [] },
        ),
        async (payload) => {
          const response = await t.app.inject({
            method: 'POST',
            url: '/api/subaccounts',
            headers: { cookie },
            payload: payload as object,
          });
          expectEnvelope(response.body, response.statusCode);
          if (response.statusCode === 422) expect(JSON.parse(response.body).error.field).toMatch(/^body/);
        },
      ),
      { numRuns: 40 },
    );
    const accounts = await t.app.inject({ url: '/api/accounts', headers: { cookie } });
    expect(accounts.json().accounts[0].subaccounts).toHaveLength(1);
  });

  it('theme and team payloads refuse unknown shapes', async () => {
    const sub = (await t.app.inject({ url: '/api/accounts', headers: { cookie } })).json().accounts[0].subaccounts[0]
      .id;
    for (const payload of [{}, { isDarkMode: 'yes' }, { primaryColor: '#12' }, { theme: 'blue' }, { extra: 1 }]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/subaccounts/${sub}/theme`,
        headers: { cookie },
        payload,
      });
      expectEnvelope(response.body, response.statusCode);
    }
    const role = await t.app.inject({
      method: 'POST',
      url: `/api/subaccounts/${sub}/members`,
      headers: { cookie },
      payload: { email: 'a@b.co', role: 'owner' },
    });
    expect(role.statusCode).toBe(422);
    expect(role.json().error.field).toBe('body.role');
  });
});
