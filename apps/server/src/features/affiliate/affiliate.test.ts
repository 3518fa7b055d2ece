import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { accounts } from '../tenancy/schema';
import { commissions } from './schema';

let t: TestApp;
let n = 0;

const newOwner = async () => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Affiliate test ${n}`,
    owner: { email: `aff${n}-${Date.now()}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  const cookie = await t.cookieFor(agency.ownerId);
  const headers = { cookie, 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return {
      status: response.statusCode,
      body: String(response.headers['content-type']).includes('json') ? response.json() : response.body,
    };
  };
  return { agency, call };
};

beforeAll(async () => {
  t = await startTestApp({ AFFILIATE_COMMISSION_RATE: '0.3', AFFILIATE_HOLD_DAYS: '30' });
});
afterAll(async () => {
  await t?.close();
});

describe('the affiliate program', () => {
  it('attributes a referred sign-up and earns a pending commission on its paid invoice, once', async () => {
    const affiliate = await newOwner();
    const mine = await affiliate.call('GET', '/api/affiliate');
    expect(mine.status).toBe(200);
    const code = mine.body.code as string;
    expect(mine.body.link).toMatch(new RegExp(`/\\?ref=${code}$`));
    expect((await affiliate.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(false);

    const referred = await newOwner();
    expect((await referred.call('POST', '/api/affiliate/attribute', { code: 'nobody-has-this' })).body.attributed).toBe(
      false,
    );
    expect((await referred.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(true);
    expect((await referred.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(false);
    expect((await referred.call('POST', '/api/affiliate/attribute', { code: '<x>' })).status).toBe(422);

    const started = await referred.call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_starter_month_500',
      referralId: code,
    });
    expect(started.status).toBe(200);
    const id = String(started.body.url).split('/billing/sandbox/')[1];
    const paid = await referred.call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
    expect(paid.body.status).toBe('paid');

    const after = (await affiliate.call('GET', '/api/affiliate')).body;
    expect(after).toMatchObject({ signups: 1, paidReferrals: 1, pending: 750, payable: 0, paid: 0 });
    expect(after.commissions[0]).toMatchObject({ invoiceAmount: 2500, amount: 750, status: 'pending' });
    const csv = await affiliate.call('GET', '/api/affiliate/commissions.csv');
    expect(csv.body).toContain('date,commission,invoice,invoice_amount_usd,rate,commission_usd,status,payable_at');
    expect(csv.body).toContain(',25.00,0.3,7.50,pending,');

    // After the hold period it is payable.
    await t.deps.db.update(commissions).set({ payableAt: new Date(Date.now() - 1000) });
    expect((await affiliate.call('GET', '/api/affiliate')).body).toMatchObject({ pending: 0, payable: 750 });
    // The referred agency sees nothing of it.
    expect((await referred.call('GET', '/api/affiliate')).body).toMatchObject({ signups: 0, pending: 0, payable: 0 });
  });

  it('does not claim an agency created before the attribution window', async () => {
    const affiliate = await newOwner();
    const code = (await affiliate.call('GET', '/api/affiliate')).body.code as string;
    const old = await newOwner();
    await t.deps.db
      .update(accounts)
      .set({ createdAt: new Date(Date.now() - 90 * 86_400_000) })
      .where(eq(accounts.id, old.agency.accountId));
    expect((await old.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/affiliate' })).statusCode).toBe(401);
  });
});
