import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StripeStub, startStripeStub } from '../../testing/stripe-stub';
import { debitUsages } from './ledger';
import { settleBalanceChecks } from './low-balance';

/** The Billing section's calls of the Stripe adapter, against the local Stripe stand-in over a real socket. */
const SECRET = 'whsec_settings_secret';
const STARTER = { id: 'price_starter_500', unit_amount: 2500, interval: 'month' as const };
const PACK = { id: 'price_pack_500', unit_amount: 2500, interval: 'month' as const };
const CARD = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 };

let t: TestApp;
let stub: StripeStub;
let n = 0;

const newOwner = async () => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Stripe settings ${n}`,
    owner: { email: `stripe-settings${n}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  let spent = 0;
  const spend = async (credits: number) => {
    spent += 1;
    await debitUsages(t.deps, [
      {
        accountId: agency.accountId,
        subaccountId: agency.subaccountIds[0] ?? null,
        model: 'offline-mini',
        inputTokens: 1,
        outputTokens: 1,
        credits,
        idempotencyKey: `stripe-spend-${n}-${spent}`,
        source: 'test',
      },
    ]);
    await settleBalanceChecks();
  };
  return { agency, call, spend };
};

const deliver = async (id: string, type: string, objectId: string, object: string) => {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: objectId, object } },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
  return response.json();
};

/** A checkout through the stub, completed by its checkout.session.completed webhook. */
const checkout = async (call: Awaited<ReturnType<typeof newOwner>>['call'], priceId: string, mode: string) => {
  const started = await call('POST', '/api/stripe/create-checkout', { priceId, mode });
  expect(started.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  const session = [...stub.sessions.values()].at(-1) as { id: string; customer: string };
  expect(
    (await deliver(`evt_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session')).outcome,
  ).toBe('processed');
  return session;
};

beforeAll(async () => {
  stub = await startStripeStub([STARTER, PACK]);
  t = await startTestApp({
    STRIPE_SECRET_KEY: 'sk_test_stub',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: stub.url,
    STRIPE_IDS_TEST: `sb_starter_month_500=${STARTER.id},sb_pack_500=${PACK.id}`,
    FREE_PLAN_CREDITS: '100',
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('Billing in Settings with Stripe', () => {
  it("shows the plan, Stripe's card and invoices with their links", async () => {
    const { call } = await newOwner();
    const session = await checkout(call, 'sb_starter_month_500', 'subscription');
    stub.addCard(session.customer, CARD);
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      provider: 'stripe',
      plan: { displayName: 'Starter 500 credits', status: 'active' },
      paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 },
      invoicesError: null,
    });
    expect(overview.body.invoices[0]).toMatchObject({
      amount: 2500,
      currency: 'USD',
      status: 'paid',
      hostedUrl: expect.stringMatching(/^https:\/\/invoice\.stripe\.test\//),
      pdfUrl: expect.stringMatching(/\.pdf$/),
    });
    // Only packs with a configured Stripe price are for sale.
    expect(overview.body.creditPacks.map((pack: { priceId: string | null }) => pack.priceId)).toEqual([
      'sb_pack_500',
      null,
      null,
    ]);
    const portal = await call('POST', '/api/stripe/create-portal', { returnUrl: '/settings' });
    expect(portal.body.url).toBe('https://billing.stripe.test/portal');
    const portalCall = stub.requests.filter((request) => request.path === '/v1/billing_portal/sessions').at(-1);
    expect(portalCall?.form.get('return_url')).toMatch(/\/settings$/);
  });

  it('a Stripe outage while listing invoices is said in the answer, not a 500', async () => {
    const { call } = await newOwner();
    await checkout(call, 'sb_starter_month_500', 'subscription');
    stub.failures.invoicesDown = true;
    try {
      const overview = await call('GET', '/api/billing/overview');
      expect(overview.status).toBe(200);
      expect(overview.body.invoices).toEqual([]);
      expect(overview.body.invoicesError).toMatch(/could not be loaded/);
    } finally {
      stub.failures.invoicesDown = false;
    }
  });

  it('a credit pack is a payment-mode checkout granted once by its webhook', async () => {
    const { call } = await newOwner();
    const session = await checkout(call, 'sb_pack_500', 'payment');
    const created = stub.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1);
    expect(created?.form.get('mode')).toBe('payment');
    expect(created?.form.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(created?.form.get('invoice_creation[enabled]')).toBe('true');
    expect(
      (await deliver(`evt_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session')).outcome,
    ).toBe('duplicate');
    await deliver(`evt_other_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session');
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(600);
    expect(overview.body.plan.status).toBe('free');
  });

  it('auto-recharge charges the saved card off-session once, with an idempotency key', async () => {
    const { call, spend } = await newOwner();
    const session = await checkout(call, 'sb_starter_month_500', 'subscription');
    const invoice = [...stub.invoices.values()].find((item) => item.customer === session.customer) as { id: string };
    await deliver(`evt_paid_${invoice.id}`, 'invoice.paid', invoice.id, 'invoice');
    stub.addCard(session.customer, CARD);
    await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 100,
      packPriceId: 'sb_pack_500',
    });
    const before = stub.paymentIntents.size;
    await Promise.all([spend(420), spend(1), spend(1)]);
    expect(stub.paymentIntents.size).toBe(before + 1);
    const paid = [...stub.paymentIntents.values()].at(-1) as Record<string, unknown>;
    expect(paid).toMatchObject({
      status: 'paid',
      amount_paid: 2500,
      customer: session.customer,
      paid_off_session: 'true',
      payment_method: stub.cards.get(session.customer)?.id,
    });
    const created = stub.requests.filter((request) => request.path === '/v1/invoices' && request.method === 'POST');
    expect(created.at(-1)?.form.get('metadata[priceId]')).toBe('sb_pack_500');
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(578);
    expect(overview.body.autoRecharge.lastResult).toMatch(/bought 500 credits pack for \$25\.$/);
    // The recharge is an invoice of its own, listed with its page and PDF.
    expect(overview.body.invoices[0]).toMatchObject({
      amount: 2500,
      status: 'paid',
      description: 'Auto-recharge: 500 credits pack',
      pdfUrl: expect.stringMatching(/\.pdf$/),
    });
  });

  it('a declined card buys nothing and says why', async () => {
    const { call, spend } = await newOwner();
    const session = await checkout(call, 'sb_pack_500', 'payment');
    stub.addCard(session.customer, CARD);
    await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 100,
      packPriceId: 'sb_pack_500',
    });
    stub.failures.declineCharges = true;
    try {
      await spend(550);
    } finally {
      stub.failures.declineCharges = false;
    }
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(50);
    expect(overview.body.autoRecharge.lastResult).toMatch(/not bought\. Your card was declined\./);
    // The refused charge's invoice is voided, not left due.
    expect(overview.body.invoices[0]).toMatchObject({ description: 'Auto-recharge: 500 credits pack', status: 'void' });
  });
});
