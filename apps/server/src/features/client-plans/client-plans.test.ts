/**
 * Client plans over the app's HTTP routes against a local stand-in of the agency's Stripe (the real
 * SDK on a real socket): connecting the key, plans, one checkout for concurrent requests, webhooks
 * verified with the SDK and acted on once, the client's view and who may see it, margin and CSV.
 */

import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { subaccountAllowances, subaccountMonthlyUsage } from '../billing/schema';
import { subaccounts } from '../tenancy/schema';
import { type AgencyStripeStub, startAgencyStripeStub } from './agency-stripe-stub';
import { csvCell } from './margin';
import { clientBillingSettings } from './schema';

const GOOD_KEY = 'sk_test_agencyGoodKey1234567890';
const RESTRICTED_KEY = 'rk_live_agencyRestricted0987654321';
const WHSEC = 'whsec_agencySigningSecret123456';
const SCALE = 'sb_scale_month_10000';

let t: TestApp;
let stub: AgencyStripeStub;
let n = 0;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const callerOf = (cookie: string) => async (method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    // CSV or empty
  }
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  return { status: response.statusCode, body: body as any, headers: response.headers, text: response.body };
};

/** An agency on a plan (Scale: white-label sub-accounts) with two clients, each with its own admin. */
const newAgency = async (plan: string | null = SCALE) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Agency ${n}`,
    owner: { email: `owner${n}@cp.test`, name: 'Owner' },
    subaccounts: ['Client A', 'Client B'],
    users: [
      { email: `a${n}@cp.test`, name: 'Admin A', role: 'admin', subaccounts: ['Client A'] },
      { email: `b${n}@cp.test`, name: 'Admin B', role: 'admin', subaccounts: ['Client B'] },
      { email: `v${n}@cp.test`, name: 'Viewer A', role: 'viewer', subaccounts: ['Client A'] },
    ],
    ...(plan ? { plan } : {}),
  });
  const [clientA, clientB] = agency.subaccountIds as [string, string];
  return {
    accountId: agency.accountId,
    clientA,
    clientB,
    owner: callerOf(await t.cookieFor(agency.ownerId)),
    adminA: callerOf(await t.cookieFor(agency.userIds[`a${n}@cp.test`] as string)),
    adminB: callerOf(await t.cookieFor(agency.userIds[`b${n}@cp.test`] as string)),
    viewerA: callerOf(await t.cookieFor(agency.userIds[`v${n}@cp.test`] as string)),
  };
};

const connected = async () => {
  const agency = await newAgency();
  const put = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
    secretKey: GOOD_KEY,
    webhookSecret: WHSEC,
  });
  expect(put.status).toBe(200);
  return agency;
};

const newPlan = async (agency: Awaited<ReturnType<typeof newAgency>>, body: object = {}) => {
  const created = await agency.owner('POST', `/api/accounts/${agency.accountId}/client-plans`, {
    name: 'Pro',
    priceMinor: 9900,
    includedCredits: 1000,
    ...body,
  });
  expect(created.status).toBe(201);
  return created.body as { id: string };
};

const signed = (event: object, secret = WHSEC) => {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return { payload, header };
};

const deliver = async (accountId: string, event: object, secret = WHSEC) => {
  const { payload, header } = signed(event, secret);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/client-billing/stripe-webhook/${accountId}`,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
  return { status: response.statusCode, body: response.json() };
};

const stripeEvent = (id: string, type: string, object: object) => ({
  id,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object },
});

const allowanceOf = async (subaccountId: string) => {
  const [row] = await t.deps.db
    .select({ credits: subaccountAllowances.monthlyCredits })
    .from(subaccountAllowances)
    .where(eq(subaccountAllowances.subaccountId, subaccountId));
  return row ? Number(row.credits) : null;
};

beforeAll(async () => {
  stub = await startAgencyStripeStub([GOOD_KEY, RESTRICTED_KEY]);
  t = await startTestApp({ STRIPE_API_BASE: stub.url, PUBLIC_URL: 'https://switchboard.example.com' });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe("connecting the agency's Stripe", () => {
  it('checks the key with one call, stores it encrypted and shows its last four characters only', async () => {
    const agency = await newAgency();
    const before = await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing`);
    expect(before.body).toMatchObject({ included: true, stripe: null, sandbox: true, paymentsAvailable: true });
    expect(before.body.webhookUrl).toBe(
      `https://switchboard.example.com/api/client-billing/stripe-webhook/${agency.accountId}`,
    );
    const calls = stub.requests.length;
    const put = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
      secretKey: GOOD_KEY,
    });
    expect(put.status).toBe(200);
    expect(stub.requests.slice(calls).map((r) => r.path)).toEqual(['/v1/balance']);
    expect(put.body.stripe).toMatchObject({ last4: '7890', mode: 'test', kind: 'secret', webhookSecretSet: false });
    expect(put.body.sandbox).toBe(false);
    expect(JSON.stringify(put.body)).not.toContain(GOOD_KEY);
    const [stored] = await t.deps.db
      .select()
      .from(clientBillingSettings)
      .where(eq(clientBillingSettings.accountId, agency.accountId));
    expect(stored?.encryptedSecretKey).toMatch(/^v1:/);
    expect(stored?.encryptedSecretKey).not.toContain(GOOD_KEY);
    const secret = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe/webhook-secret`, {
      webhookSecret: WHSEC,
    });
    expect(secret.body.stripe.webhookSecretSet).toBe(true);
    const restricted = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
      secretKey: RESTRICTED_KEY,
    });
    expect(restricted.body.stripe).toMatchObject({ last4: '4321', mode: 'live', kind: 'restricted' });
    expect((await agency.owner('DELETE', `/api/accounts/${agency.accountId}/client-billing/stripe`)).status).toBe(204);
    expect((await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing`)).body.stripe).toBeNull();
  });

  it('refuses a key Stripe refuses (422, clear message) and other key shapes without calling Stripe', async () => {
    const agency = await newAgency();
    const bad = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
      secretKey: 'sk_test_notAKeyStripeKnows123',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe(
      'Stripe did not accept this key. Copy the secret key from your Stripe dashboard again.',
    );
    const calls = stub.requests.length;
    for (const secretKey of ['pk_test_publishableKey12345', 'whsec_abcdefghijkl', 'sk_test_', 'hello']) {
      const shape = await agency.owner('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
        secretKey,
      });
      expect(shape.status).toBe(422);
    }
    expect(stub.requests.length).toBe(calls);
    expect((await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing`)).body.stripe).toBeNull();
  });

  it('is for the manager only, on a plan with white-label sub-accounts', async () => {
    const agency = await newAgency();
    const asClient = await agency.adminA('PUT', `/api/accounts/${agency.accountId}/client-billing/stripe`, {
      secretKey: GOOD_KEY,
    });
    expect(asClient.status).toBe(403);
    const other = await newAgency();
    expect((await other.owner('GET', `/api/accounts/${agency.accountId}/client-billing`)).status).toBe(404);
    const small = await newAgency('sb_growth_month_3000');
    const refused = await small.owner('PUT', `/api/accounts/${small.accountId}/client-billing/stripe`, {
      secretKey: GOOD_KEY,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'White-label sub-accounts needs a higher plan. Upgrade your plan to use it.',
    );
  });
});

describe('client plans', () => {
  it('validates amounts, archives a plan with subscribers and refuses another tenant’s ids', async () => {
    const agency = await newAgency();
    const base = `/api/accounts/${agency.accountId}/client-plans`;
    for (const body of [
      { name: 'X', priceMinor: 0, includedCredits: 10 },
      { name: 'X', priceMinor: -5, includedCredits: 10 },
      { name: 'X', priceMinor: 10.5, includedCredits: 10 },
      { name: 'X', priceMinor: 100_000_000, includedCredits: 10 },
      { name: 'X', priceMinor: 100, includedCredits: 0 },
      { name: 'X', priceMinor: 100, includedCredits: 10, extraCreditPriceMinor: 0 },
      { name: 'X', priceMinor: 100, includedCredits: 10, currency: 'xyz' },
      { name: '', priceMinor: 100, includedCredits: 10 },
    ]) {
      const refused = await agency.owner('POST', base, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    const plan = await newPlan(agency, { extraCreditPriceMinor: 1.5 });
    expect(plan).toMatchObject({ currency: 'usd', extraCreditPriceMinor: 1.5, archived: false, subscribers: 0 });
    const patched = await agency.owner('PATCH', `${base}/${plan.id}`, { name: 'Pro+', extraCreditPriceMinor: null });
    expect(patched.body).toMatchObject({ name: 'Pro+', extraCreditPriceMinor: null });

    const other = await newAgency();
    const otherBase = `/api/accounts/${other.accountId}/client-plans`;
    expect((await other.owner('PATCH', `${otherBase}/${plan.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await other.owner('DELETE', `${otherBase}/${plan.id}`)).status).toBe(404);
    expect((await other.owner('PATCH', `${base}/${plan.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await agency.adminA('POST', base, { name: 'Y', priceMinor: 100, includedCredits: 1 })).status).toBe(403);
    const blank = await agency.owner('DELETE', `${base}/${(await newPlan(agency)).id}`);
    expect(blank.body.outcome).toBe('deleted');

    // Subscribed (sandbox: the agency has no Stripe), then removed: archived, still the client's.
    const started = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: plan.id,
    });
    expect(started.body).toMatchObject({ sandbox: true, outcome: 'checkout' });
    const checkoutId = String(started.body.url).split('/').pop();
    expect((await agency.adminA('POST', `/api/client-billing/sandbox/checkouts/${checkoutId}/pay`)).status).toBe(200);
    expect((await agency.owner('DELETE', `${base}/${plan.id}`)).body.outcome).toBe('archived');
    const listed = await agency.owner('GET', `${base}?archived=true`);
    expect(listed.body.plans).toEqual([expect.objectContaining({ id: plan.id, archived: true, subscribers: 1 })]);
    expect((await agency.owner('GET', base)).body.plans).toEqual([]);
    const view = await agency.adminA('GET', `/api/subaccounts/${agency.clientA}/client-plan`);
    expect(view.body.subscription.plan.id).toBe(plan.id);
  });
});

describe('subscribing on the agency’s Stripe', () => {
  it('gives 20 concurrent requests one checkout session, with the client in its metadata', async () => {
    const agency = await connected();
    const plan = await newPlan(agency);
    stub.sessionDelayMs = 50;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, { planId: plan.id }),
      ),
    );
    stub.sessionDelayMs = 0;
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.url)).size).toBe(1);
    const mine = [...stub.sessions.values()].filter(
      (session) => (session.metadata as { subaccountId?: string }).subaccountId === agency.clientA,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      mode: 'subscription',
      metadata: { accountId: agency.accountId, subaccountId: agency.clientA, planId: plan.id },
    });
    expect(answers[0]?.body).toMatchObject({ sandbox: false, outcome: 'checkout' });
  });

  it('acts on a verified webhook once: checkout, invoice.paid sets the allowance, cancel at period end', async () => {
    const agency = await connected();
    const plan = await newPlan(agency, { includedCredits: 750 });
    const started = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: plan.id,
    });
    const session = [...stub.sessions.values()].find((s) => s.url === started.body.url) as { id: string };
    const sub = stub.complete(session.id);
    const completed = stripeEvent(`evt_cs_${n}`, 'checkout.session.completed', {
      ...stub.sessions.get(session.id),
      object: 'checkout.session',
    });
    // A forged or wrongly signed event changes nothing.
    expect((await deliver(agency.accountId, completed, 'whsec_someoneElse12345')).status).toBe(400);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/client-billing/stripe-webhook/${agency.accountId}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
      payload: JSON.stringify(completed),
    });
    expect(forged.statusCode).toBe(400);
    expect((await agency.adminA('GET', `/api/subaccounts/${agency.clientA}/client-plan`)).body.subscription).toBeNull();
    // Another agency's endpoint does not take this agency's events.
    const other = await connected();
    expect((await deliver(other.accountId, completed)).body.outcome).toBe('ignored');

    const outcomes = await Promise.all(Array.from({ length: 5 }, () => deliver(agency.accountId, completed)));
    expect(outcomes.map((o) => o.body.outcome).sort()).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'processed',
    ]);
    const now = Math.floor(Date.now() / 1000);
    const invoice = {
      id: `in_${n}`,
      object: 'invoice',
      customer: sub.customer,
      amount_paid: 9900,
      currency: 'usd',
      billing_reason: 'subscription_create',
      hosted_invoice_url: `https://invoice.stripe.test/in_${n}`,
      parent: { subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: { data: [{ period: { start: now, end: now + 30 * 86_400 } }] },
    };
    // The agency lowered the allowance by hand; the paid invoice sets it to the plan's credits again.
    const lowered = await agency.owner('PUT', `/api/billing/allowances/${agency.clientA}`, { monthlyCredits: 5 });
    expect(lowered.status).toBe(200);
    expect(await allowanceOf(agency.clientA)).toBe(5);
    const paid = stripeEvent(`evt_in_${n}`, 'invoice.paid', invoice);
    expect((await deliver(agency.accountId, paid)).body.outcome).toBe('processed');
    expect((await deliver(agency.accountId, paid)).body.outcome).toBe('duplicate');
    expect(await allowanceOf(agency.clientA)).toBe(750);
    const view = await agency.adminA('GET', `/api/subaccounts/${agency.clientA}/client-plan`);
    expect(view.body.subscription).toMatchObject({ status: 'active', sandbox: false, cancelAtPeriodEnd: false });
    expect(view.body.usage).toMatchObject({ used: 0, included: 750 });
    expect(view.body.invoices).toEqual([
      expect.objectContaining({ amountMinor: 9900, currency: 'usd', status: 'paid', url: invoice.hosted_invoice_url }),
    ]);

    const cancelled = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/cancel`);
    expect(cancelled.body.subscription.cancelAtPeriodEnd).toBe(true);
    expect(stub.subscriptions.get(sub.id as string)?.cancel_at_period_end).toBe(true);
    const deleted = stripeEvent(`evt_del_${n}`, 'customer.subscription.deleted', {
      ...stub.subscriptions.get(sub.id as string),
      status: 'canceled',
    });
    expect((await deliver(agency.accountId, deleted)).body.outcome).toBe('processed');
    expect((await agency.adminA('GET', `/api/subaccounts/${agency.clientA}/client-plan`)).body.subscription).toBeNull();
    expect(await allowanceOf(agency.clientA)).toBe(0);
  });

  it('bills last month’s extra credits once at renewal when the plan sells them', async () => {
    const agency = await connected();
    const plan = await newPlan(agency, { includedCredits: 100, extraCreditPriceMinor: 2.5 });
    const started = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: plan.id,
    });
    const session = [...stub.sessions.values()].find((s) => s.url === started.body.url) as { id: string };
    const sub = stub.complete(session.id);
    await deliver(
      agency.accountId,
      stripeEvent(`evt_cs2_${n}`, 'checkout.session.completed', { ...stub.sessions.get(session.id) }),
    );
    const renewal = new Date();
    const previous = new Date(Date.UTC(renewal.getUTCFullYear(), renewal.getUTCMonth() - 1, 10));
    await t.deps.db
      .insert(subaccountMonthlyUsage)
      .values({ subaccountId: agency.clientA, month: previous.toISOString().slice(0, 7), credits: 140 });
    const start = Math.floor(Date.UTC(renewal.getUTCFullYear(), renewal.getUTCMonth(), 1) / 1000);
    const invoice = (id: string) => ({
      id,
      object: 'invoice',
      customer: sub.customer,
      amount_paid: 9900,
      currency: 'usd',
      billing_reason: 'subscription_cycle',
      parent: { subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: { data: [{ period: { start, end: start + 30 * 86_400 } }] },
    });
    await deliver(agency.accountId, stripeEvent(`evt_r1_${n}`, 'invoice.paid', invoice(`in_r1_${n}`)));
    await deliver(agency.accountId, stripeEvent(`evt_r2_${n}`, 'invoice.paid', invoice(`in_r2_${n}`)));
    const items = stub.invoiceItems.filter((item) => item.customer === sub.customer);
    expect(items).toEqual([expect.objectContaining({ amount: 100, currency: 'usd', subscription: sub.id })]);
    // With extra credits for sale, the client has no hard cap.
    expect(await allowanceOf(agency.clientA)).toBeNull();
  });

  it('moves a live subscription to another plan instead of a second checkout', async () => {
    const agency = await connected();
    const small = await newPlan(agency, { includedCredits: 100 });
    const big = await newPlan(agency, { name: 'Big', priceMinor: 19900, includedCredits: 900 });
    const started = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: small.id,
    });
    const session = [...stub.sessions.values()].find((s) => s.url === started.body.url) as { id: string };
    const sub = stub.complete(session.id);
    await deliver(
      agency.accountId,
      stripeEvent(`evt_cs3_${n}`, 'checkout.session.completed', { ...stub.sessions.get(session.id) }),
    );
    const same = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: small.id,
    });
    expect(same.status).toBe(409);
    const moved = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: big.id,
    });
    expect(moved.body).toMatchObject({ outcome: 'changed', url: null });
    expect(stub.subscriptions.get(sub.id as string)?.metadata).toMatchObject({ planId: big.id });
    const view = await agency.adminA('GET', `/api/subaccounts/${agency.clientA}/client-plan`);
    expect(view.body.subscription.plan.id).toBe(big.id);
    expect(view.body.usage.included).toBe(900);
  });
});

describe("a client's plan page", () => {
  it('is readable by the client’s own people only; choosing a plan needs its admin', async () => {
    const agency = await newAgency();
    const plan = await newPlan(agency);
    const url = `/api/subaccounts/${agency.clientA}/client-plan`;
    const view = await agency.viewerA('GET', url);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ sandbox: true, canManage: false, subscription: null });
    expect(view.body.plans.map((p: { id: string }) => p.id)).toEqual([plan.id]);
    expect((await agency.adminB('GET', url)).status).toBe(404);
    const other = await newAgency();
    expect((await other.owner('GET', url)).status).toBe(404);
    expect((await agency.viewerA('POST', `${url}/checkout`, { planId: plan.id })).status).toBe(403);
    expect((await agency.adminB('POST', `${url}/checkout`, { planId: plan.id })).status).toBe(404);
    const otherPlan = await newPlan(other);
    expect((await agency.adminA('POST', `${url}/checkout`, { planId: otherPlan.id })).status).toBe(404);
    // The manager may choose for the client; the sandbox checkout is the client's admins' and the manager's.
    const started = await agency.owner('POST', `${url}/checkout`, { planId: plan.id });
    const checkoutId = String(started.body.url).split('/').pop();
    expect((await agency.adminB('GET', `/api/client-billing/sandbox/checkouts/${checkoutId}`)).status).toBe(404);
    const page = await agency.adminA('GET', `/api/client-billing/sandbox/checkouts/${checkoutId}`);
    expect(page.body).toMatchObject({ sandbox: true, status: 'open', planName: 'Pro' });
  });
});

describe('margin per client', () => {
  it('adds revenue, platform cost at the agency’s price per credit and margin, and exports safe CSV', async () => {
    const agency = await newAgency();
    const plan = await newPlan(agency, { priceMinor: 5000 });
    await t.deps.db
      .update(subaccounts)
      .set({ name: '=HYPERLINK("x"), "Inc"' })
      .where(eq(subaccounts.id, agency.clientB));
    const started = await agency.adminA('POST', `/api/subaccounts/${agency.clientA}/client-plan/checkout`, {
      planId: plan.id,
    });
    await agency.adminA(
      'POST',
      `/api/client-billing/sandbox/checkouts/${String(started.body.url).split('/').pop()}/pay`,
    );
    const month = new Date().toISOString().slice(0, 7);
    await t.deps.db.insert(subaccountMonthlyUsage).values([
      { subaccountId: agency.clientA, month, credits: 400 },
      { subaccountId: agency.clientB, month, credits: 100 },
    ]);
    const margin = await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing/margin?month=${month}`);
    expect(margin.status).toBe(200);
    // Scale 10,000 credits for $297 a month: 2.97 cents a credit.
    expect(margin.body.creditPriceMinor).toBeCloseTo(2.97, 4);
    const [a, b] = margin.body.rows;
    expect(a).toMatchObject({
      subaccountId: agency.clientA,
      revenueMinor: 5000,
      platformCostMinor: 1188,
      marginMinor: 3812,
    });
    expect(a.planName).toBe('Pro');
    expect(b).toMatchObject({
      subaccountId: agency.clientB,
      revenueMinor: 0,
      platformCostMinor: 297,
      marginMinor: -297,
    });
    expect(margin.body.totals).toEqual({ revenueMinor: 5000, platformCostMinor: 1485, marginMinor: 3515 });
    const empty = await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing/margin?month=2020-01`);
    expect(empty.body.totals).toEqual({ revenueMinor: 0, platformCostMinor: 0, marginMinor: 0 });
    expect(
      (await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing/margin?month=2026-13`)).status,
    ).toBe(422);
    expect((await agency.adminA('GET', `/api/accounts/${agency.accountId}/client-billing/margin`)).status).toBe(403);

    const csv = await agency.owner('GET', `/api/accounts/${agency.accountId}/client-billing/margin.csv?month=${month}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="client-margin-${month}.csv"`);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('Month,Client,Client ID,Plan,Currency,Revenue,Credits used,Platform cost (USD),Margin');
    expect(lines[1]).toBe(`${month},Client A,${agency.clientA},Pro,USD,50.00,400,11.88,38.12`);
    expect(lines[2]).toBe(`${month},"'=HYPERLINK(""x""), ""Inc""",${agency.clientB},,USD,0.00,100,2.97,-2.97`);
  });

  it('makes cells starting with = + - @ inert and quotes separators', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+SUM(A1)')).toBe("'+SUM(A1)");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });
});
