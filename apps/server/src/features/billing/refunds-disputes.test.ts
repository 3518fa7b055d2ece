/**
 * Refunds and disputes take back what a payment bought: its credits (what the balance cannot cover
 * is owed and paid first by later grants) and the affiliate's commission on its invoice; a dispute
 * won gives both back. Over the sandbox's operator routes and over signed Stripe webhooks against
 * the local Stripe stub, with the same event delivered several times at once.
 */
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../platform/jobs.schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StripeStub, startStripeStub } from '../../testing/stripe-stub';
import { commissions } from '../affiliate/schema';
import { getBalance, grantCredits, spendStrict } from './ledger';
import { LIFETIME_REFILL_JOB, type LifetimeMonth, refillLifetime } from './lifetime';
import { debtOf } from './reversal-ledger';
import { paymentReversals } from './reversals-schema';
import { sandboxObjects } from './schema';

const OPERATOR = 'ops@example.test';

/** A parsed JSON answer, read freely by the assertions. */
type Answer = ReturnType<typeof JSON.parse>;
type Call = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<{ status: number; body: Answer }>;

const caller = (t: TestApp, cookie: string, subaccountId?: string): Call => {
  const headers: Record<string, string> = { cookie, ...(subaccountId ? { 'x-subaccount-id': subaccountId } : {}) };
  return async (method, url, payload) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
};

let n = 0;
const newAgency = async (t: TestApp, email?: string) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Refunds ${n}`,
    owner: { email: email ?? `refunds${n}-${Date.now()}@example.test`, name: `Owner ${n}` },
    subaccounts: ['Main'],
  });
  return { agency, call: caller(t, await t.cookieFor(agency.ownerId), agency.subaccountIds[0]) };
};

/** An affiliate and an agency referred by it. */
const referredAgency = async (t: TestApp) => {
  const affiliate = await newAgency(t);
  const code = (await affiliate.call('GET', '/api/affiliate')).body.code as string;
  const referred = await newAgency(t);
  expect((await referred.call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(true);
  return { affiliate, referred, code };
};

const commissionTotal = async (t: TestApp, invoiceId: string) => {
  const rows = await t.deps.db.select().from(commissions).where(eq(commissions.invoiceId, invoiceId));
  return rows.reduce((sum, row) => sum + row.amount, 0);
};

describe('refunds and disputes on the sandbox (operator routes)', () => {
  let t: TestApp;
  let operator: Call;

  beforeAll(async () => {
    t = await startTestApp({
      OPERATOR_EMAILS: `Someone@example.test, ${OPERATOR.toUpperCase()}`,
      FREE_PLAN_CREDITS: '100',
    });
    operator = (await newAgency(t, OPERATOR)).call;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Pays a checkout of `priceId` on the sandbox; answers the paid invoice (or the pack's receipt). */
  const pay = async (call: Call, accountId: string, priceId: string, referralId?: string) => {
    const started = await call('POST', '/api/stripe/create-checkout', {
      priceId,
      ...(referralId ? { referralId } : {}),
    });
    expect(started.status).toBe(200);
    const id = String(started.body.url).split('/billing/sandbox/')[1];
    expect((await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).status).toBe(200);
    const invoices = await t.deps.db
      .select()
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, 'invoice'), eq(sandboxObjects.accountId, accountId)));
    const newest = invoices.sort((a, b) => Number(b.createdAt) - Number(a.createdAt))[0];
    return (newest?.data as { id: string } | undefined)?.id as string;
  };

  it('a full refund takes back the invoice credits and reverses its commission', async () => {
    const { affiliate, referred, code } = await referredAgency(t);
    const invoiceId = await pay(referred.call, referred.agency.accountId, 'sb_starter_month_500', code);
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(500);
    expect(await commissionTotal(t, invoiceId)).toBe(750);

    const refunded = await operator('POST', '/api/operator/sandbox/refunds', { invoiceId });
    expect(refunded).toMatchObject({
      status: 200,
      body: { sandbox: true, amountRefunded: 2500, outcome: 'processed' },
    });
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
    const summary = (await affiliate.call('GET', '/api/affiliate')).body;
    expect(summary.pending).toBe(0);
    expect(summary.commissions.map((row: { kind: string }) => row.kind).sort()).toEqual(['earned', 'reversal']);
    // The Billing section lists it as refunded.
    const overview = await referred.call('GET', '/api/billing/overview');
    expect(overview.body.invoices.find((invoice: { id: string }) => invoice.id === invoiceId).status).toBe('refunded');
    // Refunding again changes nothing.
    await operator('POST', '/api/operator/sandbox/refunds', { invoiceId });
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
  });

  it('a partial refund takes back its share, and two refunds at once add up', async () => {
    const { referred, code } = await referredAgency(t);
    const invoiceId = await pay(referred.call, referred.agency.accountId, 'sb_starter_month_500', code);
    // $10 of $25: 40 % of 500 credits and of the $7.50 commission.
    const first = await operator('POST', '/api/operator/sandbox/refunds', { invoiceId, amount: 1000 });
    expect(first.body.amountRefunded).toBe(1000);
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(300);
    expect(await commissionTotal(t, invoiceId)).toBe(450);
    // Two refunds of $5 at the same moment: $20 refunded in all, 80 %.
    const both = await Promise.all([
      operator('POST', '/api/operator/sandbox/refunds', { invoiceId, amount: 500 }),
      operator('POST', '/api/operator/sandbox/refunds', { invoiceId, amount: 500 }),
    ]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(100);
    expect(await commissionTotal(t, invoiceId)).toBe(150);
    const [reversal] = await t.deps.db.select().from(paymentReversals).where(eq(paymentReversals.invoiceId, invoiceId));
    expect(reversal).toMatchObject({ amountReversed: 2000, status: 'partially_refunded', creditsTaken: 400 });
  });

  it('a refund larger than the balance locks the shortfall: nothing refunded can be spent', async () => {
    const { agency, call } = await newAgency(t);
    const invoiceId = await pay(call, agency.accountId, 'sb_starter_month_500');
    await spendStrict(t.deps, { accountId: agency.accountId, credits: 450, idempotencyKey: `spent-${n}` });
    expect(await getBalance(t.deps, agency.accountId)).toBe(50);

    await operator('POST', '/api/operator/sandbox/refunds', { invoiceId });
    expect(await getBalance(t.deps, agency.accountId)).toBe(0);
    await t.deps.db.transaction(async (tx) => expect(await debtOf(tx, agency.accountId)).toBe(450));
    await expect(
      spendStrict(t.deps, { accountId: agency.accountId, credits: 1, idempotencyKey: `after-${n}` }),
    ).rejects.toMatchObject({ code: 'BILLING_INSUFFICIENT_CREDITS' });
    // Credits that come in pay what is owed first.
    await grantCredits(t.deps, { accountId: agency.accountId, kind: 'promo', credits: 300, sourceKey: `p1-${n}` });
    expect(await getBalance(t.deps, agency.accountId)).toBe(0);
    await grantCredits(t.deps, { accountId: agency.accountId, kind: 'promo', credits: 200, sourceKey: `p2-${n}` });
    expect(await getBalance(t.deps, agency.accountId)).toBe(50);
    await t.deps.db.transaction(async (tx) => expect(await debtOf(tx, agency.accountId)).toBe(0));
  });

  it('a credit pack: its credits and its commission are taken back with its refund', async () => {
    const { referred, code } = await referredAgency(t);
    const receiptId = await pay(referred.call, referred.agency.accountId, 'sb_pack_500', code);
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(600);
    expect(await commissionTotal(t, receiptId)).toBe(750);
    await operator('POST', '/api/operator/sandbox/refunds', { invoiceId: receiptId });
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(100);
    expect(await commissionTotal(t, receiptId)).toBe(0);
  });

  it('a refunded lifetime plan: its later months are taken back as they come', async () => {
    const { agency, call } = await newAgency(t);
    const receiptId = await pay(call, agency.accountId, 'sb_secret_mentoring_lifetime');
    expect(await getBalance(t.deps, agency.accountId)).toBe(3100);
    // $3,500 of $7,000 refunded: half of each month.
    await operator('POST', '/api/operator/sandbox/refunds', { invoiceId: receiptId, amount: 350_000 });
    expect(await getBalance(t.deps, agency.accountId)).toBe(1600);
    const [job] = await t.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.accountId, agency.accountId), eq(jobs.type, LIFETIME_REFILL_JOB)));
    expect(await refillLifetime(t.deps, job?.payload as LifetimeMonth)).toBe(true);
    // Month one's 3,000 came in, half of it went back: 1,600 + 1,500.
    expect(await getBalance(t.deps, agency.accountId)).toBe(3100);
  });

  it('a dispute takes back at once; won gives back, lost keeps them taken', async () => {
    const { referred, code } = await referredAgency(t);
    const invoiceId = await pay(referred.call, referred.agency.accountId, 'sb_starter_month_500', code);
    const opened = await operator('POST', '/api/operator/sandbox/disputes', { invoiceId });
    expect(opened.body).toMatchObject({ sandbox: true, status: 'needs_response', amount: 2500 });
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
    const won = await operator('POST', '/api/operator/sandbox/disputes/close', {
      disputeId: opened.body.disputeId,
      status: 'won',
    });
    expect(won.body).toMatchObject({ status: 'won', outcome: 'processed' });
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(500);
    expect(await commissionTotal(t, invoiceId)).toBe(750);
    // Closed already: another outcome is refused.
    const again = await operator('POST', '/api/operator/sandbox/disputes/close', {
      disputeId: opened.body.disputeId,
      status: 'lost',
    });
    expect(again.status).toBe(409);

    const other = await referredAgency(t);
    const lostInvoice = await pay(
      other.referred.call,
      other.referred.agency.accountId,
      'sb_starter_month_500',
      other.code,
    );
    const dispute = await operator('POST', '/api/operator/sandbox/disputes', { invoiceId: lostInvoice });
    await operator('POST', '/api/operator/sandbox/disputes/close', {
      disputeId: dispute.body.disputeId,
      status: 'lost',
    });
    expect(await getBalance(t.deps, other.referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, lostInvoice)).toBe(0);
  });

  it('a dispute won after the credits were spent cancels what is still owed', async () => {
    const { agency, call } = await newAgency(t);
    const invoiceId = await pay(call, agency.accountId, 'sb_starter_month_500');
    await spendStrict(t.deps, { accountId: agency.accountId, credits: 400, idempotencyKey: `d-${n}` });
    const dispute = await operator('POST', '/api/operator/sandbox/disputes', { invoiceId });
    expect(await getBalance(t.deps, agency.accountId)).toBe(0);
    await t.deps.db.transaction(async (tx) => expect(await debtOf(tx, agency.accountId)).toBe(400));
    await operator('POST', '/api/operator/sandbox/disputes/close', {
      disputeId: dispute.body.disputeId,
      status: 'won',
    });
    expect(await getBalance(t.deps, agency.accountId)).toBe(100);
    await t.deps.db.transaction(async (tx) => expect(await debtOf(tx, agency.accountId)).toBe(0));
  });

  it('only operators reach the sandbox actions; unknown invoices are 404', async () => {
    const { agency, call } = await newAgency(t);
    const invoiceId = await pay(call, agency.accountId, 'sb_starter_month_500');
    const refused = await call('POST', '/api/operator/sandbox/refunds', { invoiceId });
    expect(refused.status).toBe(404);
    expect((await call('POST', '/api/operator/sandbox/disputes', { invoiceId })).status).toBe(404);
    expect(await getBalance(t.deps, agency.accountId)).toBe(500);
    const signedOut = await t.app.inject({ method: 'POST', url: '/api/operator/sandbox/refunds' });
    expect(signedOut.statusCode).toBe(401);
    expect((await operator('POST', '/api/operator/sandbox/refunds', { invoiceId: 'in_nothing' })).status).toBe(404);
    expect(
      (await operator('POST', '/api/operator/sandbox/disputes/close', { disputeId: 'dp_nothing', status: 'won' }))
        .status,
    ).toBe(404);
    expect((await operator('POST', '/api/operator/sandbox/refunds', { invoiceId, amount: -5 })).status).toBe(422);
  });
});

describe('refunds and disputes from signed Stripe webhooks', () => {
  const SECRET = 'whsec_refunds_secret';
  const STARTER = { id: 'price_starter_500', unit_amount: 2500, interval: 'month' as const };
  const PACK = { id: 'price_pack_500', unit_amount: 2500, interval: 'month' as const };
  let t: TestApp;
  let stub: StripeStub;

  beforeAll(async () => {
    stub = await startStripeStub([STARTER, PACK]);
    t = await startTestApp({
      STRIPE_SECRET_KEY: 'sk_test_stub',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: stub.url,
      STRIPE_IDS_TEST: `sb_starter_month_500=${STARTER.id},sb_pack_500=${PACK.id}`,
      FREE_PLAN_CREDITS: '100',
      AFFILIATE_COMMISSION_RATE: '0.3',
    });
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  const signed = (id: string, type: string, objectId: string, object: string, secret = SECRET) => {
    const payload = JSON.stringify({
      id,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: objectId, object } },
    });
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  };
  const deliver = async (event: { payload: string; header: string }) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
      payload: event.payload,
    });
    return { status: response.statusCode, body: response.json() };
  };

  /** A referred agency subscribed through Stripe, its first invoice paid: answers the invoice and its charge. */
  const subscribed = async () => {
    const { referred, code } = await referredAgency(t);
    expect(
      (
        await referred.call('POST', '/api/stripe/create-checkout', {
          priceId: 'sb_starter_month_500',
          referralId: code,
        })
      ).status,
    ).toBe(200);
    const session = [...stub.sessions.values()].at(-1) as { id: string };
    await deliver(signed(`evt_cs_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session'));
    const sub = stub.subscriptions.get((stub.sessions.get(session.id) as { subscription: string }).subscription) as {
      latest_invoice: string;
    };
    const invoiceId = sub.latest_invoice;
    expect((await deliver(signed(`evt_paid_${invoiceId}`, 'invoice.paid', invoiceId, 'invoice'))).body.outcome).toBe(
      'processed',
    );
    const charge = stub.chargeInvoice(invoiceId) as { id: string; amount_refunded: number };
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(500);
    expect(await commissionTotal(t, invoiceId)).toBe(750);
    return { accountId: referred.agency.accountId, invoiceId, charge };
  };

  it('charge.refunded delivered five times at once is applied once', async () => {
    const { accountId, invoiceId, charge } = await subscribed();
    charge.amount_refunded = 2500;
    const event = signed(`evt_refund_${charge.id}`, 'charge.refunded', charge.id, 'charge');
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.outcome === 'processed')).toHaveLength(1);
    expect(await getBalance(t.deps, accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
    const rows = await t.deps.db.select().from(commissions).where(eq(commissions.invoiceId, invoiceId));
    expect(rows).toHaveLength(2);
  });

  it('a partial refund, then the rest: each event brings the charge’s refunded total', async () => {
    const { accountId, invoiceId, charge } = await subscribed();
    charge.amount_refunded = 500;
    await deliver(signed(`evt_r1_${charge.id}`, 'charge.refunded', charge.id, 'charge'));
    expect(await getBalance(t.deps, accountId)).toBe(400);
    expect(await commissionTotal(t, invoiceId)).toBe(600);
    charge.amount_refunded = 2500;
    // Two different events about the same refunds at once: the total is taken back once.
    await Promise.all([
      deliver(signed(`evt_r2_${charge.id}`, 'charge.refunded', charge.id, 'charge')),
      deliver(signed(`evt_r3_${charge.id}`, 'charge.refunded', charge.id, 'charge')),
    ]);
    expect(await getBalance(t.deps, accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
  });

  it('dispute created takes back, closed as won restores, closed as lost keeps them taken', async () => {
    const { accountId, invoiceId, charge } = await subscribed();
    const dispute = stub.disputeCharge(charge.id) as { id: string; status: string };
    const created = signed(`evt_dc_${dispute.id}`, 'charge.dispute.created', dispute.id, 'dispute');
    const answers = await Promise.all([deliver(created), deliver(created), deliver(created)]);
    expect(answers.filter((answer) => answer.body.outcome === 'processed')).toHaveLength(1);
    expect(await getBalance(t.deps, accountId)).toBe(0);
    expect(await commissionTotal(t, invoiceId)).toBe(0);
    dispute.status = 'won';
    await deliver(signed(`evt_dw_${dispute.id}`, 'charge.dispute.closed', dispute.id, 'dispute'));
    expect(await getBalance(t.deps, accountId)).toBe(500);
    expect(await commissionTotal(t, invoiceId)).toBe(750);

    const lost = await subscribed();
    const second = stub.disputeCharge(lost.charge.id) as { id: string; status: string };
    await deliver(signed(`evt_dc_${second.id}`, 'charge.dispute.created', second.id, 'dispute'));
    second.status = 'lost';
    await deliver(signed(`evt_dl_${second.id}`, 'charge.dispute.closed', second.id, 'dispute'));
    expect(await getBalance(t.deps, lost.accountId)).toBe(0);
    expect(await commissionTotal(t, lost.invoiceId)).toBe(0);
  });

  it('a refund delivered before its invoice.paid takes back what the invoice then grants', async () => {
    const { referred, code } = await referredAgency(t);
    await referred.call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500', referralId: code });
    const session = [...stub.sessions.values()].at(-1) as { id: string };
    await deliver(signed(`evt_cs_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session'));
    const sub = stub.subscriptions.get((stub.sessions.get(session.id) as { subscription: string }).subscription) as {
      latest_invoice: string;
    };
    const charge = stub.chargeInvoice(sub.latest_invoice) as { id: string; amount_refunded: number };
    charge.amount_refunded = 2500;
    const early = await deliver(signed(`evt_early_${charge.id}`, 'charge.refunded', charge.id, 'charge'));
    expect(early.body.outcome).toBe('processed');
    const late = signed(`evt_late_${sub.latest_invoice}`, 'invoice.paid', sub.latest_invoice, 'invoice');
    expect((await deliver(late)).body.outcome).toBe('processed');
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, sub.latest_invoice)).toBe(0);
    // Another invoice.paid event of it changes nothing more.
    await deliver(signed(`evt_late2_${sub.latest_invoice}`, 'invoice.paid', sub.latest_invoice, 'invoice'));
    expect(await getBalance(t.deps, referred.agency.accountId)).toBe(0);
    expect(await commissionTotal(t, sub.latest_invoice)).toBe(0);
    await t.deps.db.transaction(async (tx) => expect(await debtOf(tx, referred.agency.accountId)).toBe(0));
  });

  it('a credit pack bought through Stripe: its refund takes back the pack found by its payment', async () => {
    const { agency, call } = await newAgency(t);
    expect(
      (await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' })).status,
    ).toBe(200);
    const session = [...stub.sessions.values()].at(-1) as { id: string };
    await deliver(signed(`evt_pack_${session.id}`, 'checkout.session.completed', session.id, 'checkout.session'));
    expect(await getBalance(t.deps, agency.accountId)).toBe(600);
    const charge = stub.chargeCheckout(session.id, 2500) as { id: string; amount_refunded: number };
    charge.amount_refunded = 1250;
    await deliver(signed(`evt_pack_refund_${charge.id}`, 'charge.refunded', charge.id, 'charge'));
    expect(await getBalance(t.deps, agency.accountId)).toBe(350);
  });

  it('a refund event with a wrong signature changes nothing', async () => {
    const { accountId, charge } = await subscribed();
    charge.amount_refunded = 2500;
    const forged = signed(`evt_forged_${charge.id}`, 'charge.refunded', charge.id, 'charge', 'whsec_wrong');
    const answer = await deliver(forged);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('WEBHOOK_VALIDATION_FAILED');
    expect(await getBalance(t.deps, accountId)).toBe(500);
  });
});
