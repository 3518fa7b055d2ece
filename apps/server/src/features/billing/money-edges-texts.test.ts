/**
 * What the money screens and mails say (sandbox provider, over HTTP): the receipt /success promises
 * is mailed once per paid invoice to the address it names, and a complimentary plan is not called
 * the free plan.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../../platform/domain-events';
import { outbox } from '../../platform/mail.schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settleReactions } from '../../testing/reactions';

let t: TestApp;
let n = 0;

const owner = async (plan?: string) => {
  n += 1;
  const email = `edges-texts${n}@example.test`;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Texts ${n}`,
    owner: { email, name: 'Owner' },
    subaccounts: ['Main'],
    ...(plan ? { plan } : {}),
  });
  const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const mails = async () => {
    await settleReactions(t.deps);
    return t.deps.db.select().from(outbox).where(eq(outbox.to, email));
  };
  return { email, call, mails };
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t.close();
});

describe('the receipt /success promises', () => {
  it('is mailed to the address /success names, once per paid invoice', async () => {
    const { email, call, mails } = await owner();
    const started = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_growth_month_3000',
      promoCode: 'FIRSTMONTH69',
    });
    const id = String(started.body.url).split('/billing/sandbox/')[1] as string;
    const page = await call('GET', `/api/billing/sandbox/checkouts/${id}`);
    const paid = await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
    expect(paid.body.status).toBe('paid');
    expect(new URL(paid.body.redirectUrl ?? page.body.successUrl).searchParams.get('email')).toBe(email);
    // Paying again (a second click) announces nothing new.
    await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
    const first = await mails();
    expect(first.map((mail) => mail.subject)).toEqual(['Your Switchboard receipt: $24.49']);
    expect(first[0]?.text).toContain('Texts');
    expect(first[0]?.text).toMatch(/\/settings#billing/);
    // The next month's invoice has its own receipt.
    expect((await call('POST', '/api/billing/sandbox/renew')).status).toBe(200);
    expect((await mails()).map((mail) => mail.subject)).toEqual([
      'Your Switchboard receipt: $24.49',
      'Your Switchboard receipt: $79.00',
    ]);
  });
});

describe('a receipt announced twice', () => {
  it('is mailed once (Stripe may announce one invoice by several events)', async () => {
    n += 1;
    const agency = await seedAgency(t.deps.db, {
      accountName: `Texts ${n}`,
      owner: { email: `edges-texts${n}@example.test`, name: 'Owner' },
      subaccounts: ['Main'],
    });
    for (let round = 0; round < 2; round += 1) {
      await t.deps.db.transaction((tx) =>
        publish(t.deps, 'invoice.paid', { accountId: agency.accountId, invoiceId: 'in_twice', amountPaid: 2500 }, tx),
      );
    }
    await settleReactions(t.deps);
    const sent = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, `edges-texts${n}@example.test`));
    expect(sent.map((mail) => mail.subject)).toEqual(['Your Switchboard receipt: $25.00']);
  });
});

describe('a complimentary plan', () => {
  it('is said to be complimentary, not the free plan', async () => {
    const { call } = await owner('sb_growth_month_3000');
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.plan).toMatchObject({ status: 'complimentary', amount: 0 });
    expect(overview.body.plan.displayName).toMatch(/Growth/);
  });
});
