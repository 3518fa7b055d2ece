/**
 * A client running low: its admins are mailed once per threshold a month, and the automatic top-up
 * charges its saved card on the agency's Stripe (the real SDK against a local stand-in) at most
 * once an hour, raising its allowance; the sandbox charges nothing and says so.
 */
import { and, eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { subaccountAllowances, subaccountMonthlyUsage } from '../billing/schema';
import { type AgencyStripeStub, startAgencyStripeStub } from './agency-stripe-stub';
import { watchClientBalances } from './balance';
import { clientInvoices } from './schema';

const KEY = 'sk_test_balanceAgencyKey12345';
const WHSEC = 'whsec_balanceSigningSecret1234';

let t: TestApp;
let stub: AgencyStripeStub;
let n = 0;

type Method = 'GET' | 'POST' | 'PUT';
const callerOf = (cookie: string) => async (method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  return { status: response.statusCode, body: response.json() as any };
};

const newClient = async (options: { stripe: boolean; extraCreditPriceMinor?: number | null }) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Balance ${n}`,
    owner: { email: `owner${n}@bal.test`, name: 'Owner' },
    subaccounts: [`Client ${n}`],
    users: [
      { email: `admin${n}@bal.test`, name: 'Client Admin', role: 'admin' },
      { email: `portal${n}@bal.test`, name: 'Portal User', role: 'client' },
    ],
    plan: 'sb_scale_month_10000',
  });
  const client = agency.subaccountIds[0] as string;
  const owner = callerOf(await t.cookieFor(agency.ownerId));
  const admin = callerOf(await t.cookieFor(agency.userIds[`admin${n}@bal.test`] as string));
  if (options.stripe) {
    await owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
      secretKey: KEY,
      webhookSecret: WHSEC,
    });
  }
  const plan = await owner('POST', `/api/accounts/${agency.accountId}/client-plans`, {
    name: 'Capped',
    priceMinor: 10000,
    includedCredits: 1000,
    extraCreditPriceMinor: options.extraCreditPriceMinor ?? null,
  });
  const started = await admin('POST', `/api/subaccounts/${client}/client-plan/checkout`, { planId: plan.body.id });
  let customer: string | null = null;
  if (options.stripe) {
    const session = [...stub.sessions.values()].find((s) => s.url === started.body.url) as { id: string };
    const sub = stub.complete(session.id);
    customer = sub.customer as string;
    const payload = JSON.stringify({
      id: `evt_bal_${n}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: stub.sessions.get(session.id) },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    await t.app.inject({
      method: 'POST',
      url: `/api/client-billing/stripe-webhook/${agency.accountId}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
  } else {
    const checkoutId = String(started.body.url).split('/').pop();
    await admin('POST', `/api/client-billing/sandbox/checkouts/${checkoutId}/pay`);
  }
  return { agency, client, admin, owner, customer };
};

const use = async (subaccountId: string, credits: number) => {
  const month = new Date().toISOString().slice(0, 7);
  await t.deps.db
    .insert(subaccountMonthlyUsage)
    .values({ subaccountId, month, credits })
    .onConflictDoUpdate({
      target: [subaccountMonthlyUsage.subaccountId, subaccountMonthlyUsage.month],
      set: { credits },
    });
};

const allowanceOf = async (subaccountId: string) =>
  Number(
    (
      await t.deps.db
        .select({ credits: subaccountAllowances.monthlyCredits })
        .from(subaccountAllowances)
        .where(eq(subaccountAllowances.subaccountId, subaccountId))
    )[0]?.credits,
  );

const mailsTo = (email: string) =>
  t.deps.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.to, email), like(outbox.subject, '%credits running low%')));

beforeAll(async () => {
  stub = await startAgencyStripeStub([KEY]);
  t = await startTestApp({ STRIPE_API_BASE: stub.url });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('low-balance alerts of a client', () => {
  it('mails the client’s admins once per threshold per month', async () => {
    const { client, admin } = await newClient({ stripe: false });
    const saved = await admin('PUT', `/api/subaccounts/${client}/client-plan/balance`, {
      thresholds: [20, 50],
      topUpEnabled: false,
      topUpCredits: null,
      topUpBelowCredits: null,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.balance.thresholds).toEqual([50, 20]);
    const email = `admin${n}@bal.test`;
    await use(client, 400);
    await watchClientBalances(t.deps);
    expect(await mailsTo(email)).toHaveLength(0);
    await use(client, 600);
    await watchClientBalances(t.deps);
    await watchClientBalances(t.deps);
    const first = await mailsTo(email);
    expect(first.map((mail) => mail.subject)).toEqual([`Client ${n}: credits running low (50% left)`]);
    await use(client, 850);
    await Promise.all([watchClientBalances(t.deps), watchClientBalances(t.deps)]);
    expect((await mailsTo(email)).map((mail) => mail.subject).sort()).toEqual([
      `Client ${n}: credits running low (20% left)`,
      `Client ${n}: credits running low (50% left)`,
    ]);
    // The agency's owner (admin of every client) is not mailed about a client that has admins of its own.
    expect(await mailsTo(`owner${n}@bal.test`)).toHaveLength(0);
    // The client's portal user is mailed too, in the agency's name (white-label: the platform unnamed).
    const portal = await mailsTo(`portal${n}@bal.test`);
    expect(portal).toHaveLength(2);
    for (const mail of portal) {
      expect(mail.fromName).toBe(`Balance ${n}`);
      expect(`${mail.text} ${mail.html}`).not.toContain('Switchboard');
      expect(mail.link).toBe(`${t.deps.publicUrl}/${client}/plan`);
    }
  });

  it('refuses bad settings and top-up on a plan that bills extra credits', async () => {
    const { client, admin } = await newClient({ stripe: false, extraCreditPriceMinor: 5 });
    const url = `/api/subaccounts/${client}/client-plan/balance`;
    expect(
      (await admin('PUT', url, { thresholds: [0], topUpEnabled: false, topUpCredits: null, topUpBelowCredits: null }))
        .status,
    ).toBe(422);
    expect(
      (
        await admin('PUT', url, {
          thresholds: [10, 10],
          topUpEnabled: false,
          topUpCredits: null,
          topUpBelowCredits: null,
        })
      ).status,
    ).toBe(422);
    expect(
      (await admin('PUT', url, { thresholds: [], topUpEnabled: true, topUpCredits: null, topUpBelowCredits: null }))
        .status,
    ).toBe(422);
    const extra = await admin('PUT', url, {
      thresholds: [],
      topUpEnabled: true,
      topUpCredits: 100,
      topUpBelowCredits: 50,
    });
    expect(extra.status).toBe(409);
    // A plan billing extra credits has no cap: its alerts count against its included credits.
    const alerts = await admin('PUT', url, {
      thresholds: [50],
      topUpEnabled: false,
      topUpCredits: null,
      topUpBelowCredits: null,
    });
    expect(alerts.status).toBe(200);
    await use(client, 600);
    await watchClientBalances(t.deps);
    expect((await mailsTo(`admin${n}@bal.test`)).map((mail) => mail.subject)).toEqual([
      `Client ${n}: credits running low (50% left)`,
    ]);
  });
});

describe('automatic top-up of a client', () => {
  it('charges the saved card off-session once an hour and raises the allowance', async () => {
    const { client, admin, customer } = await newClient({ stripe: true });
    stub.cards.set(customer as string, { id: `pm_${n}`, object: 'payment_method', type: 'card' });
    const saved = await admin('PUT', `/api/subaccounts/${client}/client-plan/balance`, {
      thresholds: [],
      topUpEnabled: true,
      topUpCredits: 500,
      topUpBelowCredits: 100,
    });
    expect(saved.body.balance).toMatchObject({ topUpPriceMinor: 5000, currency: 'usd' });
    expect(await allowanceOf(client)).toBe(1000);
    await use(client, 950);
    const now = new Date();
    await Promise.all([watchClientBalances(t.deps, now), watchClientBalances(t.deps, now)]);
    const mine = stub.paymentIntents.filter((intent) => intent.customer === customer);
    expect(mine).toEqual([
      expect.objectContaining({ amount: 5000, currency: 'usd', payment_method: `pm_${n}`, off_session: 'true' }),
    ]);
    expect(await allowanceOf(client)).toBe(1500);
    const invoices = await t.deps.db.select().from(clientInvoices).where(eq(clientInvoices.subaccountId, client));
    expect(invoices.filter((invoice) => invoice.kind === 'topup')).toEqual([
      expect.objectContaining({ amountMinor: 5000, status: 'paid', provider: 'stripe' }),
    ]);
    // Still low within the hour: nothing more; after it, one more.
    await use(client, 1450);
    await watchClientBalances(t.deps, new Date(now.getTime() + 30 * 60_000));
    expect(stub.paymentIntents.filter((intent) => intent.customer === customer)).toHaveLength(1);
    await watchClientBalances(t.deps, new Date(now.getTime() + 61 * 60_000));
    expect(stub.paymentIntents.filter((intent) => intent.customer === customer)).toHaveLength(2);
    expect(await allowanceOf(client)).toBe(2000);
  });

  it('records a declined card and buys nothing; the sandbox tops up without a charge', async () => {
    const declined = await newClient({ stripe: true });
    stub.cards.set(declined.customer as string, { id: `pm_d${n}`, object: 'payment_method', type: 'card' });
    await declined.admin('PUT', `/api/subaccounts/${declined.client}/client-plan/balance`, {
      thresholds: [],
      topUpEnabled: true,
      topUpCredits: 100,
      topUpBelowCredits: 100,
    });
    await use(declined.client, 990);
    stub.failures.declineCharges = true;
    await watchClientBalances(t.deps);
    stub.failures.declineCharges = false;
    expect(await allowanceOf(declined.client)).toBe(1000);
    const view = await declined.admin('GET', `/api/subaccounts/${declined.client}/client-plan`);
    expect(view.body.balance.topUpLastResult).toMatch(/100 credits not bought\. The card was declined\.$/);

    const sandbox = await newClient({ stripe: false });
    await sandbox.admin('PUT', `/api/subaccounts/${sandbox.client}/client-plan/balance`, {
      thresholds: [],
      topUpEnabled: true,
      topUpCredits: 200,
      topUpBelowCredits: 100,
    });
    await use(sandbox.client, 950);
    await watchClientBalances(t.deps);
    expect(await allowanceOf(sandbox.client)).toBe(1200);
    const after = await sandbox.admin('GET', `/api/subaccounts/${sandbox.client}/client-plan`);
    expect(after.body.balance.topUpLastResult).toMatch(/bought 200 credits \(Sandbox, no real charge\)\.$/);
    expect(after.body.invoices[0]).toMatchObject({ kind: 'topup', amountMinor: 2000, sandbox: true });
  });
});
