/**
 * The sandbox applies a promotion for as many months as it is for (sandbox provider, over HTTP):
 * TWOMONTHS75 discounts the first two monthly invoices, FIRSTMONTH69 only the first; the catalog
 * price follows.
 */

import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { sandboxObjects } from './schema';

let t: TestApp;
let n = 0;

const subscribeWith = async (promoCode: string) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Sandbox promo ${n}`,
    owner: { email: `edges-sandbox-promo${n}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000', promoCode });
  expect(started.status).toBe(200);
  const id = String(started.body.url).split('/billing/sandbox/')[1] as string;
  expect((await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).body.status).toBe(
    'paid',
  );
  const invoices = async () => {
    const rows = await t.deps.db
      .select({ data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, 'invoice'), eq(sandboxObjects.accountId, agency.accountId)))
      .orderBy(asc(sandboxObjects.createdAt));
    return rows.map((row) => (row.data as { amountPaid: number }).amountPaid);
  };
  const renew = async () => expect((await call('POST', '/api/billing/sandbox/renew')).status).toBe(200);
  return { invoices, renew };
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t.close();
});

describe('a promotion of several months in the sandbox', () => {
  it('TWOMONTHS75 charges $19.75 for the first two months, then $79', async () => {
    const { invoices, renew } = await subscribeWith('TWOMONTHS75');
    await renew();
    await renew();
    expect(await invoices()).toEqual([1975, 1975, 7900]);
  });

  it('FIRSTMONTH69 charges $24.49 for the first month only', async () => {
    const { invoices, renew } = await subscribeWith('FIRSTMONTH69');
    await renew();
    expect(await invoices()).toEqual([2449, 7900]);
  });
});
