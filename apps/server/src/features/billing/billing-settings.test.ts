import type { TWebhookEventType } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../platform/jobs.schema';
import { outbox } from '../../platform/mail.schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settleReactions } from '../../testing/reactions';
import { webhookDeliveries, webhookEndpoints } from '../webhooks/schema';
import { debitUsages } from './ledger';
import { LIFETIME_REFILL_JOB, type LifetimeMonth, refillLifetime } from './lifetime';
import { settleBalanceChecks } from './low-balance';
import { billingAccounts, creditGrants } from './schema';

let t: TestApp;
/** Waits for the balance checks of the spends so far and for what they announced (mail, webhooks). */
const settle = async () => {
  await settleBalanceChecks();
  await settleReactions(t.deps);
};
let n = 0;

const newOwner = async () => {
  n += 1;
  const email = `settings${n}@example.test`;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Settings ${n}`,
    owner: { email, name: 'Owner' },
    subaccounts: ['Main'],
    users: [{ email: `viewer${n}@example.test`, name: 'Viewer', role: 'viewer' }],
  });
  const subaccountId = agency.subaccountIds[0] as string;
  const as = async (userId: string) => {
    const headers = { cookie: await t.cookieFor(userId), 'x-subaccount-id': subaccountId };
    return async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      return { status: response.statusCode, body: response.json() };
    };
  };
  const call = await as(agency.ownerId);
  const viewer = await as(agency.userIds[`viewer${n}@example.test`] as string);
  let spent = 0;
  const spend = async (credits: number) => {
    spent += 1;
    await debitUsages(t.deps, [
      {
        accountId: agency.accountId,
        subaccountId,
        model: 'offline-mini',
        inputTokens: 10,
        outputTokens: 10,
        credits,
        idempotencyKey: `spend-${n}-${spent}`,
        source: 'test',
      },
    ]);
    await settle();
  };
  const mails = async () => (await t.deps.db.select().from(outbox).where(eq(outbox.to, email))).map((m) => m.subject);
  return { agency, call, viewer, spend, mails };
};

const pay = async (call: Awaited<ReturnType<typeof newOwner>>['call'], priceId: string, mode = 'subscription') => {
  const started = await call('POST', '/api/stripe/create-checkout', { priceId, mode });
  expect(started.status).toBe(200);
  const id = String(started.body.url).split('/billing/sandbox/')[1] as string;
  const paid = await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
  expect(paid.body.status).toBe('paid');
  return id;
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t?.close();
});

describe('Billing in Settings (sandbox provider)', () => {
  it('shows the free plan, then the plan, renewal date, sandbox card and invoices after a checkout', async () => {
    const { call, viewer } = await newOwner();
    const free = await call('GET', '/api/billing/overview');
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({
      provider: 'sandbox',
      plan: { displayName: 'Free', status: 'free', amount: 0 },
      renewalDate: null,
      paymentMethod: null,
      invoices: [],
      balance: 100,
      periodCredits: 100,
    });
    expect(free.body.creditPacks[0]).toMatchObject({ priceId: 'sb_pack_500', credits: 500, price: 25 });

    await pay(call, 'sb_starter_month_500');
    const paid = await call('GET', '/api/billing/overview');
    expect(paid.body).toMatchObject({
      plan: { displayName: 'Starter 500 credits', status: 'active', amount: 2500, interval: 'month' },
      paymentMethod: { brand: 'sandbox', last4: '4242' },
      cancelAtPeriodEnd: false,
      periodCredits: 500,
    });
    expect(new Date(paid.body.renewalDate).getTime()).toBeGreaterThan(Date.now() + 25 * 86_400_000);
    expect(paid.body.invoices).toEqual([
      expect.objectContaining({ amount: 2500, currency: 'USD', status: 'paid', description: 'Starter 500 credits' }),
    ]);
    // The agency's plan, card and invoices are its manager's: a viewer neither reads nor changes them.
    expect((await viewer('GET', '/api/billing/overview')).status).toBe(403);
    expect((await viewer('PUT', '/api/billing/low-balance-alerts', { thresholds: [20] })).status).toBe(403);
    expect((await viewer('POST', '/stripe/cancel-subscription', { cancelAtPeriodEnd: true })).status).toBe(403);
  });

  it('cancels at the period end with its date, and resumes until then', async () => {
    const { call } = await newOwner();
    await pay(call, 'sb_starter_month_500');
    const before = await call('GET', '/api/billing/overview');
    const cancelled = await call('POST', '/stripe/cancel-subscription', { cancelAtPeriodEnd: true });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancelDate).toBe(before.body.renewalDate);
    const after = await call('GET', '/api/billing/overview');
    expect(after.body).toMatchObject({
      cancelAtPeriodEnd: true,
      renewalDate: null,
      periodEnd: before.body.renewalDate,
    });
    expect(after.body.plan.status).toBe('active');
    const resumed = await call('POST', '/stripe/resubscribe', {});
    expect(resumed.status).toBe(200);
    const again = await call('GET', '/api/billing/overview');
    expect(again.body).toMatchObject({ cancelAtPeriodEnd: false, renewalDate: before.body.renewalDate });
  });

  it('the portal of the sandbox is its own labelled page; no customer yet is a clear error', async () => {
    const { call } = await newOwner();
    const none = await call('POST', '/api/stripe/create-portal', { returnUrl: '/settings' });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('BILLING_CUSTOMER_NOT_FOUND');
    await pay(call, 'sb_starter_month_500');
    const portal = await call('POST', '/api/stripe/create-portal', { returnUrl: '/settings' });
    expect(portal.body.url).toMatch(/\/billing\/sandbox\/portal\?returnUrl=.*%2Fsettings$/);
  });
});

describe('credit packs (checkout mode payment)', () => {
  it('grants the pack once, however often the payment completes, and lists its receipt', async () => {
    const { call } = await newOwner();
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' });
    const id = String(started.body.url).split('/billing/sandbox/')[1] as string;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' }),
      ),
    );
    expect(results.filter((result) => result.body.status === 'paid').length).toBeGreaterThanOrEqual(1);
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(600);
    expect(overview.body.plan.status).toBe('free');
    expect(overview.body.invoices).toEqual([
      expect.objectContaining({ amount: 2500, status: 'paid', description: '500 credits pack' }),
    ]);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance.bonusCreditsRemaining).toBe(500);
  });

  it('a pack alongside a plan keeps the plan; an unknown pack is refused', async () => {
    const { call } = await newOwner();
    await pay(call, 'sb_starter_month_500');
    await pay(call, 'sb_pack_2000', 'payment');
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(2500);
    expect(overview.body.plan.displayName).toBe('Starter 500 credits');
    const unknown = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_7', mode: 'payment' });
    expect(unknown.status).toBe(422);
  });
});

describe('Mentoring + Lifetime: its credits every month', () => {
  it('grants month one with the payment and each next month once, by a scheduled job', async () => {
    const { call, agency } = await newOwner();
    await pay(call, 'sb_secret_mentoring_lifetime', 'payment');
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(3100);
    const queued = await t.deps.db.select().from(jobs).where(eq(jobs.accountId, agency.accountId));
    const next = queued.find((job) => job.type === LIFETIME_REFILL_JOB);
    expect(next?.status).toBe('queued');
    const inAMonth = next?.runAt.getTime() ?? 0;
    expect(inAMonth).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect(inAMonth).toBeLessThan(Date.now() + 32 * 86_400_000);
    const payload = next?.payload as LifetimeMonth;
    expect(payload.month).toBe(1);
    // The job runs (twice, as after a restart): one more month of credits.
    expect(await refillLifetime(t.deps, payload)).toBe(true);
    expect(await refillLifetime(t.deps, payload)).toBe(false);
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(6100);
    const grants = await t.deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, agency.accountId));
    const lifetime = grants.filter((grant) => grant.sourceKey.startsWith('lifetime:'));
    expect(lifetime).toHaveLength(2);
    expect(lifetime.every((grant) => grant.expiresAt !== null)).toBe(true);
    const after = await t.deps.db.select().from(jobs).where(eq(jobs.accountId, agency.accountId));
    expect(after.filter((job) => job.type === LIFETIME_REFILL_JOB)).toHaveLength(2);
  });
});

describe('low-balance alerts', () => {
  it('refuses bad thresholds with the field named', async () => {
    const { call } = await newOwner();
    for (const thresholds of [[0], [100], [20, 20], [1, 2, 3, 4, 5, 6], ['x'], [2.5]]) {
      const refused = await call('PUT', '/api/billing/low-balance-alerts', { thresholds });
      expect(refused.status).toBe(422);
      expect(refused.body.error.field).toMatch(/^thresholds/);
    }
    expect((await call('PUT', '/api/billing/low-balance-alerts', {})).status).toBe(422);
  });

  it('mails each threshold once per period, the lowest crossed when several are passed at once', async () => {
    const { call, spend, mails, agency } = await newOwner();
    const set = await call('PUT', '/api/billing/low-balance-alerts', { thresholds: [5, 20] });
    expect(set.body).toEqual({ thresholds: [20, 5] });
    await settle();
    expect(await mails()).toEqual([]);
    await spend(50); // 50 of 100 left
    expect(await mails()).toEqual([]);
    await spend(32); // 18 left: under 20%
    expect(await mails()).toEqual(['Your Switchboard credits are running low (20% left)']);
    await spend(5); // 13 left
    await Promise.all([spend(1), spend(1), spend(1)]);
    expect(await mails()).toHaveLength(1);
    await spend(8); // 2 left: under 5%
    expect(await mails()).toEqual([
      'Your Switchboard credits are running low (20% left)',
      'Your Switchboard credits are running low (5% left)',
    ]);
    await spend(1);
    expect(await mails()).toHaveLength(2);
    const [mail] = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, `settings${n}@example.test`));
    expect(mail?.text).toContain('Settings');
    expect(mail?.link).toMatch(/\/settings$/);
    // A new period mails again.
    await pay(call, 'sb_starter_month_500');
    await spend(450); // 50 of 500 left: 10%
    // The plan's payment has its receipt; the new period's alert is the third.
    expect(await mails()).toContain('Your Switchboard receipt: $25.00');
    expect((await mails()).filter((subject) => subject.startsWith('Your Switchboard credits'))).toHaveLength(3);
    const [row] = await t.deps.db.select().from(billingAccounts).where(eq(billingAccounts.accountId, agency.accountId));
    expect(row?.lowBalanceAlertedAt).toBe(20);
  });

  it('tells the webhooks of the account that chose credits.low, once per threshold, as live', async () => {
    const { call, spend, agency } = await newOwner();
    const subaccountId = agency.subaccountIds[0] as string;
    const endpoint = (id: string, events: TWebhookEventType[]) => ({
      id,
      subaccountId,
      url: 'https://hooks.example.test/in',
      events,
      secretEncrypted: 'unused',
    });
    await t.deps.db
      .insert(webhookEndpoints)
      .values([endpoint(`whe_low_${n}`, ['credits.low']), endpoint(`whe_chat_${n}`, ['message.sent'])]);
    await call('PUT', '/api/billing/low-balance-alerts', { thresholds: [20] });
    await spend(82); // 18 of 100 left
    await spend(1);
    const deliveries = await t.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subaccountId, subaccountId));
    expect(deliveries.map((row) => [row.endpointId, row.type])).toEqual([[`whe_low_${n}`, 'credits.low']]);
    expect(JSON.parse(deliveries[0]?.body ?? '{}').data).toEqual({ remaining: 18, total: 100, thresholdPercent: 20 });
  });

  it('a threshold the balance is already under is mailed when it is set', async () => {
    const { call, spend, mails } = await newOwner();
    await spend(95);
    await call('PUT', '/api/billing/low-balance-alerts', { thresholds: [10] });
    await settle();
    expect(await mails()).toEqual(['Your Switchboard credits are running low (10% left)']);
  });
});

describe('auto-recharge', () => {
  it('refuses an unknown pack or a missing threshold', async () => {
    const { call } = await newOwner();
    const unknown = await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 50,
      packPriceId: 'sb_starter_month_500',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.field).toBe('packPriceId');
    const noThreshold = await call('PUT', '/api/billing/auto-recharge', { enabled: true, packPriceId: 'sb_pack_500' });
    expect(noThreshold.status).toBe(422);
    expect(noThreshold.body.error.field).toBe('thresholdCredits');
  });

  it('without a saved payment method says so instead of charging', async () => {
    const { call, spend } = await newOwner();
    // A checkout opened but never paid saves no card.
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' });
    expect(started.status).toBe(200);
    expect((await call('GET', '/api/billing/overview')).body.paymentMethod).toBeNull();
    await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 50,
      packPriceId: 'sb_pack_500',
    });
    await spend(60);
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(40);
    expect(overview.body.autoRecharge.lastResult).toMatch(/No saved payment method/);
  });

  it('buys the pack once when the balance falls below the threshold, at most once an hour', async () => {
    const { call, spend, agency } = await newOwner();
    await pay(call, 'sb_starter_month_500');
    const set = await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 100,
      packPriceId: 'sb_pack_500',
    });
    expect(set.body).toEqual({ enabled: true, thresholdCredits: 100, packPriceId: 'sb_pack_500' });
    await spend(300); // 200 left: above the threshold
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(200);
    await Promise.all([spend(150), spend(1), spend(1)]); // 48 left: one recharge of 500
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.balance).toBe(548);
    expect(overview.body.autoRecharge.lastResult).toMatch(
      /bought 500 credits pack for \$25 \(sandbox, no real charge\)/,
    );
    expect(
      overview.body.invoices.filter((i: { description: string }) => i.description.startsWith('Auto-recharge')),
    ).toHaveLength(1);
    // Below the threshold again within the hour: no second charge.
    await spend(500);
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(48);
    // An hour later it may recharge again.
    await t.deps.db
      .update(billingAccounts)
      .set({ autoRechargeLastAt: new Date(Date.now() - 3_700_000) })
      .where(eq(billingAccounts.accountId, agency.accountId));
    await spend(1);
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(547);
    // Turned off: nothing more.
    await call('PUT', '/api/billing/auto-recharge', { enabled: false, thresholdCredits: null, packPriceId: null });
    await t.deps.db
      .update(billingAccounts)
      .set({ autoRechargeLastAt: null })
      .where(eq(billingAccounts.accountId, agency.accountId));
    await spend(500);
    expect((await call('GET', '/api/billing/overview')).body.balance).toBe(47);
  });
});
