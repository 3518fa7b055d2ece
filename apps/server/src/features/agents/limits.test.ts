import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Free Agency',
    owner: { email: 'owner@free.test', name: 'Owner' },
    subaccounts: ['Only Client'],
  });
  cookie = await t.cookieFor(agency.ownerId);
});
afterAll(() => t.close());

describe('agents per sub-account on the free plan', () => {
  it('allows one agent and refuses the second, also as a duplicate, creating nothing', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: { cookie },
      payload: { name: 'One' },
    });
    expect(first.statusCode).toBe(201);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: { cookie },
      payload: { name: 'Two' },
    });
    expect(second.statusCode).toBe(403);
    expect(second.json().error.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
    const copy = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${first.json().id}/duplicate`,
      headers: { cookie },
    });
    expect(copy.statusCode).toBe(403);
    const list = await t.app.inject({ url: '/api/builds', headers: { cookie } });
    expect(JSON.stringify(list.json())).not.toContain('"Two"');
  });
});
