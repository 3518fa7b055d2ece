import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';

/**
 * What a platform API key (bound to one sub-account) and a viewer may reach beyond their
 * sub-account's routes: only their own sub-account, and nothing that pays or spends.
 */
let t: TestApp;
let agency: SeededAgency;
let owner: string;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  owner = await t.cookieFor(agency.ownerId);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie: owner, 'x-subaccount-id': agency.subaccountIds[1] as string },
    payload: { name: 'Harbor integration' },
  });
  expect(created.statusCode).toBe(201);
  key = created.json().key;
});
afterAll(() => t.close());

describe('an API key bound to a sub-account', () => {
  it('lists only its own sub-account and agency', async () => {
    const response = await t.app.inject({ url: '/api/accounts', headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(200);
    const accounts = response.json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0].subaccounts.map((sub: { id: string }) => sub.id)).toEqual([agency.subaccountIds[1]]);
    expect(response.body).not.toContain('Sunrise Solar');
  });

  it('cannot create sub-accounts', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { authorization: `Bearer ${key}` },
      payload: { accountId: agency.accountId, name: 'Made by a key' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('a viewer', () => {
  it('cannot spend credits through the designer preview chat', async () => {
    const subaccountId = agency.subaccountIds[0] as string;
    const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Preview Agent' });
    const connection = await t.app.inject({
      method: 'POST',
      url: '/api/connections',
      headers: { cookie: owner },
      payload: { subaccountId, buildId: agent.id, type: 'website-widget' },
    });
    const viewer = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${connection.json().connectionId}/preview-chat`,
      headers: { cookie: viewer },
      payload: { message: 'Hello' },
    });
    expect(refused.statusCode).toBe(403);
    const member = await t.cookieFor(agency.userIds['member@demo.switchboard.local'] as string);
    const allowed = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${connection.json().connectionId}/preview-chat`,
      headers: { cookie: member },
      payload: { message: 'Hello' },
    });
    expect(allowed.statusCode).toBe(200);
  });

  it("cannot pay the agency's checkout", async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/create-checkout',
      headers: { cookie: owner, 'x-subaccount-id': agency.subaccountIds[0] as string },
      payload: { priceId: 'sb_growth_month_3000' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = String(started.json().url).split('/billing/sandbox/')[1];
    for (const email of ['viewer@demo.switchboard.local', 'member@demo.switchboard.local']) {
      const cookie = await t.cookieFor(agency.userIds[email] as string);
      const paid = await t.app.inject({
        method: 'POST',
        url: `/api/billing/sandbox/checkouts/${id}/complete`,
        headers: { cookie },
        payload: { outcome: 'pay' },
      });
      expect(paid.statusCode, `${email}: ${paid.body}`).toBe(404);
    }
    const byOwner = await t.app.inject({
      method: 'POST',
      url: `/api/billing/sandbox/checkouts/${id}/complete`,
      headers: { cookie: owner },
      payload: { outcome: 'pay' },
    });
    expect(byOwner.statusCode).toBe(200);
  });
});
