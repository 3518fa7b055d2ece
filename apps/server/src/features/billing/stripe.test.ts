import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgencyCaller } from '../../testing/agency-caller';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StripeStub, startStripeStub } from '../../testing/stripe-stub';

const SECRET = 'whsec_test_secret';
const STARTER = { id: 'price_starter_500', unit_amount: 2500, interval: 'month' as const };
const GROWTH = { id: 'price_growth_3000', unit_amount: 7900, interval: 'month' as const };

let t: TestApp;
let stub: StripeStub;
let n = 0;

const newOwner = async () => {
  n += 1;
  return newAgencyCaller(t, `Stripe ${n}`, `stripe${n}@example.test`);
};

const signed = (event: object, options: { timestamp?: number; secret?: string } = {}) => {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
  return { payload, header };
};

const deliver = async (payload: string, header: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
  return { status: response.statusCode, body: response.json() };
};

const event = (id: string, type: string, objectId: string, object: string) => ({
  id,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object: { id: objectId, object } },
});

/** Checkout through the stub and the checkout.session.completed webhook. */
const subscribe = async (call: Awaited<ReturnType<typeof newOwner>>['call'], priceId: string) => {
  const started = await call('POST', '/api/stripe/create-checkout', { priceId });
  expect(started.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  const session = [...stub.sessions.values()].at(-1) as { id: string };
  const { payload, header } = signed(
    event(`evt_cs_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session'),
  );
  expect((await deliver(payload, header)).body.outcome).toBe('processed');
  const sessionAfter = stub.sessions.get(session.id) as { subscription: string };
  return sessionAfter.subscription;
};

beforeAll(async () => {
  stub = await startStripeStub([STARTER, GROWTH]);
  t = await startTestApp({
    STRIPE_SECRET_KEY: 'sk_test_stub',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: stub.url,
    STRIPE_IDS_TEST: `sb_starter_month_500=${STARTER.id},sb_growth_month_3000=${GROWTH.id}`,
    FREE_PLAN_CREDITS: '100',
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('Stripe adapter against a local Stripe stub', () => {
  it('only tiers with a configured Stripe price are for sale', async () => {
    const { call } = await newOwner();
    const catalog = await call('GET', '/api/openrouter/plans');
    expect(catalog.body.plans.starter[0].price_id).toBe('sb_starter_month_500');
    expect(catalog.body.plans.starter[1].price_id).toBeNull();
    const refused = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_1000' });
    expect(refused.body.error.code).toBe('BILLING_INVALID_PLAN');
  });

  it('grants plan credits from a verified invoice.paid webhook once, however often it is delivered', async () => {
    const { call, agency } = await newOwner();
    const subId = await subscribe(call, 'sb_starter_month_500');
    const now = Math.floor(Date.now() / 1000);
    stub.addInvoice({
      id: `in_first_${n}`,
      subscription: subId,
      price: STARTER,
      start: now,
      end: now + 30 * 86_400,
      accountId: agency.accountId,
    });
    const { payload, header } = signed(event(`evt_paid_${n}`, 'invoice.paid', `in_first_${n}`, 'invoice'));
    const outcomes = [];
    for (let i = 0; i < 10; i += 1) outcomes.push((await deliver(payload, header)).body.outcome);
    expect(outcomes.filter((outcome) => outcome === 'processed')).toHaveLength(1);
    const again = signed(event(`evt_paid_other_${n}`, 'invoice.paid', `in_first_${n}`, 'invoice'));
    expect((await deliver(again.payload, again.header)).status).toBe(200);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({
      planCode: 'starter_monthly',
      planCreditLimit: 500,
      totalCreditsRemaining: 500,
    });
  });

  it('refuses tampered, stale and wrongly signed webhooks and changes nothing', async () => {
    const { call } = await newOwner();
    const subId = await subscribe(call, 'sb_starter_month_500');
    // Subscribed, but no invoice.paid accepted yet: still the free plan's 100 credits.
    const now = Math.floor(Date.now() / 1000);
    stub.addInvoice({ id: `in_bad_${n}`, subscription: subId, price: STARTER, start: now, end: now + 30 * 86_400 });
    const good = signed(event(`evt_bad_${n}`, 'invoice.paid', `in_bad_${n}`, 'invoice'));
    const tampered = await deliver(good.payload.replace('invoice.paid', 'invoice.paid '), good.header);
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe('WEBHOOK_VALIDATION_FAILED');
    const stale = signed(event(`evt_bad_${n}`, 'invoice.paid', `in_bad_${n}`, 'invoice'), { timestamp: now - 3600 });
    expect((await deliver(stale.payload, stale.header)).status).toBe(401);
    const wrong = signed(event(`evt_bad_${n}`, 'invoice.paid', `in_bad_${n}`, 'invoice'), { secret: 'whsec_other' });
    expect((await deliver(wrong.payload, wrong.header)).status).toBe(401);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({
      planCode: 'starter_monthly',
      planCreditLimit: 100,
      totalCreditsRemaining: 100,
    });
  });

  it('ends in the same state when invoices arrive out of order', async () => {
    const { call } = await newOwner();
    const subId = await subscribe(call, 'sb_starter_month_500');
    const now = Math.floor(Date.now() / 1000);
    const month = 30 * 86_400;
    stub.addInvoice({ id: `in_p1_${n}`, subscription: subId, price: STARTER, start: now - month, end: now });
    stub.addInvoice({ id: `in_p2_${n}`, subscription: subId, price: STARTER, start: now, end: now + month });
    const second = signed(event(`evt_p2_${n}`, 'invoice.paid', `in_p2_${n}`, 'invoice'));
    const first = signed(event(`evt_p1_${n}`, 'invoice.paid', `in_p1_${n}`, 'invoice'));
    await deliver(second.payload, second.header);
    await deliver(first.payload, first.header);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCreditLimit: 500, totalCreditsRemaining: 500 });
    const updated = signed(event(`evt_sub_${n}`, 'customer.subscription.updated', subId, 'subscription'));
    expect((await deliver(updated.payload, updated.header)).body.outcome).toBe('processed');
    expect((await call('GET', '/api/openrouter/usage')).body.balance.tierCode).toBe('starter_500');
  });

  it('previews and upgrades with the same proration date, and schedules a downgrade with a schedule', async () => {
    const { call } = await newOwner();
    await subscribe(call, 'sb_starter_month_500');
    const preview = await call('POST', '/stripe/preview-upgrade', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
    });
    expect(preview.status).toBe(200);
    const { proration } = preview.body;
    expect(proration.chargeAmount).toBe(7900);
    const upgraded = await call('POST', '/api/stripe/upgrade-subscription', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
      prorationDate: proration.prorationDate,
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.proration.amountCharged).toBe(proration.totalDueNow);
    const previewCall = stub.requests.filter((r) => r.path === '/v1/invoices/create_preview').at(-1);
    const updateCall = stub.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/'))
      .at(-1);
    expect(updateCall?.form.get('proration_date')).toBe(previewCall?.form.get('subscription_details[proration_date]'));
    expect(
      updateCall?.form.get('billing_cycle_anchor[type]') ?? updateCall?.form.get('billing_cycle_anchor'),
    ).toBeTruthy();
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ tierCode: 'growth_3000', planCreditLimit: 3000 });

    const scheduled = await call('POST', '/stripe/schedule-downgrade', { newPriceId: 'sb_starter_month_500' });
    expect(scheduled.status).toBe(200);
    expect((await call('GET', '/api/openrouter/usage')).body.balance.scheduledPriceId).toBe('sb_starter_month_500');
    await call('POST', '/stripe/cancel-scheduled-downgrade');
    expect((await call('GET', '/api/openrouter/usage')).body.balance.scheduledPriceId).toBeNull();
  });

  it('a new checkout expires the open one, and two first checkouts share one customer (idempotency key)', async () => {
    const { call, agency } = await newOwner();
    const [a, b] = await Promise.all([
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const customerCalls = stub.requests.filter(
      (r) => r.path === '/v1/customers' && r.form.get('metadata[accountId]') === agency.accountId,
    );
    expect(customerCalls.length).toBeGreaterThanOrEqual(1);
    const customers = new Set(
      [...stub.sessions.values()]
        .filter((session) => (session.metadata as { accountId: string }).accountId === agency.accountId)
        .map((session) => session.customer),
    );
    expect(customers.size).toBe(1);
    await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    const mine = [...stub.sessions.values()].filter(
      (session) => (session.metadata as { accountId: string }).accountId === agency.accountId,
    );
    expect(mine.filter((session) => session.status === 'open')).toHaveLength(1);
    expect(mine.at(-1)?.status).toBe('open');
  });

  it('cancels and refunds a second live subscription on customer.subscription.created', async () => {
    const { call, agency } = await newOwner();
    const first = await subscribe(call, 'sb_starter_month_500');
    const customer = (stub.subscriptions.get(first) as { customer: string }).customer;
    // A second subscription of the same customer (a checkout paid in another tab before it expired).
    const second = stub.makeSubscription(customer, GROWTH, agency.accountId);
    const created = signed(event(`evt_dup_${n}`, 'customer.subscription.created', second.id as string, 'subscription'));
    expect((await deliver(created.payload, created.header)).body.outcome).toBe('processed');
    expect(stub.subscriptions.get(second.id as string)?.status).toBe('canceled');
    const invoice = stub.invoices.get(second.latest_invoice as string) as { payment_intent_id: string };
    expect(stub.refunds.map((refund) => refund.payment_intent)).toContain(invoice.payment_intent_id);
    // Its paid invoice grants nothing; the account stays on its first subscription.
    const paid = signed(event(`evt_dup_inv_${n}`, 'invoice.paid', second.latest_invoice as string, 'invoice'));
    await deliver(paid.payload, paid.header);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ tierCode: 'starter_500', totalCreditsRemaining: 100 });
    expect((await call('GET', '/stripe/subscription-details')).body.subscription.priceId).toBe('sb_starter_month_500');
  });
});
