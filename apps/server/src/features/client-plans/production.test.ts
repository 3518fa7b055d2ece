/** In production an agency without Stripe offers no checkout: the sandbox is never used on its own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost' });
});
afterAll(async () => {
  await t?.close();
});

describe('client plans in production', () => {
  it('refuses the sandbox fallback: "This agency has not connected Stripe yet."', async () => {
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Prod Agency',
      owner: { email: 'owner@prod-cp.test', name: 'Owner' },
      subaccounts: ['Client'],
      plan: 'sb_scale_month_10000',
    });
    const headers = { cookie: await t.cookieFor(agency.ownerId) };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      return { status: response.statusCode, body: response.json() };
    };
    const status = await call('GET', `/api/accounts/${agency.accountId}/client-billing`);
    expect(status.body).toMatchObject({ sandbox: false, paymentsAvailable: false, stripe: null });
    const plan = await call('POST', `/api/accounts/${agency.accountId}/client-plans`, {
      name: 'Pro',
      priceMinor: 4900,
      includedCredits: 500,
    });
    expect(plan.status).toBe(201);
    const client = agency.subaccountIds[0] as string;
    const started = await call('POST', `/api/subaccounts/${client}/client-plan/checkout`, { planId: plan.body.id });
    expect(started.status).toBe(409);
    expect(started.body.error.message).toBe('This agency has not connected Stripe yet.');
    const view = await call('GET', `/api/subaccounts/${client}/client-plan`);
    expect(view.body).toMatchObject({ sandbox: false, paymentsAvailable: false });
  });
});
