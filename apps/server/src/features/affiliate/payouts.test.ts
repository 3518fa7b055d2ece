/**
 * Affiliate payouts, the operator's side: commissions are pending for the hold period, then
 * payable; the operator lists and downloads what is payable per affiliate, marks it paid with a
 * reference (two requests at once pay once), and a refund after the payout is netted in the next
 * one. Anyone but an operator is answered 404.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { sandboxObjects } from '../billing/schema';
import { affiliatePayouts, commissions } from './schema';

const OPERATOR = 'payouts-operator@example.test';

let t: TestApp;
let n = 0;

/** A parsed JSON answer, read freely by the assertions. */
type Answer = ReturnType<typeof JSON.parse>;
type Call = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<{ status: number; body: Answer }>;

const newUser = async (email?: string, name?: string) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Payouts ${n}`,
    owner: { email: email ?? `payouts${n}-${Date.now()}@example.test`, name: name ?? `Affiliate ${n}` },
    subaccounts: ['Main'],
  });
  const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call: Call = async (method, url, payload) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const json = String(response.headers['content-type']).includes('json');
    return { status: response.statusCode, body: json ? response.json() : response.body };
  };
  return { agency, call };
};

/** An agency referred by `affiliate` pays a Starter plan ($25) on the sandbox; answers its invoice id. */
const referredPayment = async (affiliate: Awaited<ReturnType<typeof newUser>>, priceId = 'sb_starter_month_500') => {
  const code = (await affiliate.call('GET', '/api/affiliate')).body.code as string;
  const referred = await newUser();
  expect((await referred.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(true);
  const started = await referred.call('POST', '/api/stripe/create-checkout', { priceId, referralId: code });
  const id = String(started.body.url).split('/billing/sandbox/')[1];
  expect(
    (await referred.call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).status,
  ).toBe(200);
  const [invoice] = await t.deps.db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.accountId, referred.agency.accountId), eq(sandboxObjects.kind, 'invoice')));
  return { referred, invoiceId: invoice?.id as string };
};

/** Ends the hold period of every commission of the user. */
const holdOver = (userId: string) =>
  t.deps.db
    .update(commissions)
    .set({ payableAt: new Date(Date.now() - 1000) })
    .where(eq(commissions.affiliateUserId, userId));

let operator: Call;

beforeAll(async () => {
  t = await startTestApp({ OPERATOR_EMAILS: OPERATOR, AFFILIATE_COMMISSION_RATE: '0.3', AFFILIATE_HOLD_DAYS: '30' });
  operator = (await newUser(OPERATOR, 'Operator')).call;
});
afterAll(async () => {
  await t?.close();
});

describe('affiliate payouts', () => {
  it('lists what is payable per affiliate after the hold period, as JSON and as CSV', async () => {
    const affiliate = await newUser(undefined, 'Ada, "the" Affiliate');
    await referredPayment(affiliate);
    await referredPayment(affiliate, 'sb_pack_500');
    // Still in the hold period: nothing payable.
    const before = await operator('GET', '/api/operator/affiliate/payable');
    expect(before.status).toBe(200);
    const listed = before.body.affiliates.map((row: { affiliateUserId: string }) => row.affiliateUserId);
    expect(listed).not.toContain(affiliate.agency.ownerId);
    await holdOver(affiliate.agency.ownerId);
    const payable = await operator('GET', '/api/operator/affiliate/payable');
    expect(payable.body.stripeConnect).toBe('not_configured');
    const row = payable.body.affiliates.find(
      (item: { affiliateUserId: string }) => item.affiliateUserId === affiliate.agency.ownerId,
    );
    // Starter $25 and the 500-credit pack $25, 30 % each.
    expect(row).toMatchObject({
      amount: 1500,
      currency: 'usd',
      count: 2,
      method: 'manual',
      stripeConnect: 'not_configured',
    });
    const csv = await operator('GET', '/api/operator/affiliate/payable.csv');
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split('\n');
    expect(lines[0]).toBe('name,email,amount,currency,count');
    expect(lines).toContain(`"Ada, ""the"" Affiliate",${row.email},15.00,USD,2`);
    expect((await affiliate.call('GET', '/api/affiliate')).body).toMatchObject({ pending: 0, payable: 1500, paid: 0 });
  });

  it('marks payable commissions paid with a reference; two requests at once pay once', async () => {
    const affiliate = await newUser();
    await referredPayment(affiliate);
    await holdOver(affiliate.agency.ownerId);
    const body = { reference: 'BANK-2026-11-27', affiliateUserIds: [affiliate.agency.ownerId] };
    const answers = await Promise.all([
      operator('POST', '/api/operator/affiliate/payouts', body),
      operator('POST', '/api/operator/affiliate/payouts', body),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const made = answers.flatMap((answer) => answer.body.payouts);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      affiliateUserId: affiliate.agency.ownerId,
      amount: 750,
      count: 1,
      reference: 'BANK-2026-11-27',
      method: 'manual',
      transferId: null,
      paidBy: OPERATOR,
    });
    const stored = await t.deps.db
      .select()
      .from(affiliatePayouts)
      .where(eq(affiliatePayouts.affiliateUserId, affiliate.agency.ownerId));
    expect(stored).toHaveLength(1);
    expect((await affiliate.call('GET', '/api/affiliate')).body).toMatchObject({ payable: 0, paid: 750 });
    const paidRows = await t.deps.db
      .select()
      .from(commissions)
      .where(eq(commissions.affiliateUserId, affiliate.agency.ownerId));
    expect(paidRows.every((row) => row.payoutId === made[0].id && row.paidAt)).toBe(true);
    const listed = await operator('GET', '/api/operator/affiliate/payouts');
    expect(listed.body.payouts.map((payout: { id: string }) => payout.id)).toContain(made[0].id);
    // Nothing left to pay: the affiliate is no longer listed.
    const payable = await operator('GET', '/api/operator/affiliate/payable');
    expect(payable.body.affiliates.map((row: { affiliateUserId: string }) => row.affiliateUserId)).not.toContain(
      affiliate.agency.ownerId,
    );
  });

  it('a refund after the payout is taken from the next payout', async () => {
    const affiliate = await newUser();
    const first = await referredPayment(affiliate);
    await holdOver(affiliate.agency.ownerId);
    await operator('POST', '/api/operator/affiliate/payouts', {
      reference: 'FIRST',
      affiliateUserIds: [affiliate.agency.ownerId],
    });
    // The paid invoice is refunded in full; another referred agency pays.
    const refund = await operator('POST', '/api/operator/sandbox/refunds', { invoiceId: first.invoiceId });
    expect(refund.body.outcome).toBe('processed');
    await referredPayment(affiliate, 'sb_growth_month_3000');
    await holdOver(affiliate.agency.ownerId);
    const payable = await operator('GET', '/api/operator/affiliate/payable');
    const row = payable.body.affiliates.find(
      (item: { affiliateUserId: string }) => item.affiliateUserId === affiliate.agency.ownerId,
    );
    // Growth 3,000 ($79 a month) earns $23.70; the paid $7.50 is taken back from it.
    expect(row).toMatchObject({ amount: 2370 - 750, count: 2 });
    const paid = await operator('POST', '/api/operator/affiliate/payouts', { reference: 'SECOND' });
    expect(
      paid.body.payouts.find(
        (payout: { affiliateUserId: string }) => payout.affiliateUserId === affiliate.agency.ownerId,
      ),
    ).toMatchObject({ amount: 1620, count: 2, reference: 'SECOND' });
    expect((await affiliate.call('GET', '/api/affiliate')).body).toMatchObject({ pending: 0, payable: 0, paid: 2370 });
  });

  it('refuses a payout without a reference, and answers 404 to anyone but an operator', async () => {
    expect((await operator('POST', '/api/operator/affiliate/payouts', { reference: '  ' })).status).toBe(422);
    const someone = await newUser();
    for (const [method, url] of [
      ['GET', '/api/operator/affiliate/payable'],
      ['GET', '/api/operator/affiliate/payable.csv'],
      ['GET', '/api/operator/affiliate/payouts'],
      ['POST', '/api/operator/affiliate/payouts'],
    ] as const) {
      const answer = await someone.call(method, url, method === 'POST' ? { reference: 'X' } : undefined);
      expect(answer.status, url).toBe(404);
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });
});
