/**
 * Payments that cannot be gamed (sandbox provider, over the app's HTTP routes): no sandbox in
 * production unless BILLING_SANDBOX=true, promotions chosen and checked by the server, one live
 * subscription per account.
 */

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { sandboxObjects } from './schema';

const apps: TestApp[] = [];
let t: TestApp;
let n = 0;

const ownerOn = async (app: TestApp) => {
  n += 1;
  const agency = await seedAgency(app.deps.db, {
    accountName: `Integrity ${n}`,
    owner: { email: `integrity${n}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  const headers = { cookie: await app.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  return { agency, call };
};

/** The sandbox provider's stored objects of an account (what the provider would show). */
const billingSandboxRows = async (app: TestApp, accountId: string, kind: 'customer' | 'subscription' | 'invoice') => {
  const rows = await app.deps.db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, kind), eq(sandboxObjects.accountId, accountId)));
  return rows.map((row) => row.data as { status?: string; amountPaid?: number; refunded?: boolean });
};

const checkoutId = (url: string) => String(url).split('/billing/sandbox/')[1] as string;

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
  apps.push(t);
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe('no silent sandbox in production', () => {
  it('answers 503 at checkout and says so in the catalog when production has neither Stripe nor BILLING_SANDBOX', async () => {
    const prod = await startTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost' });
    apps.push(prod);
    const { call } = await ownerOn(prod);
    const catalog = await call('GET', '/api/openrouter/plans');
    expect(catalog.body.payments).toBe('none');
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_scale_month_100000' });
    expect(started.status).toBe(503);
    expect(started.body.error).toMatchObject({
      code: 'SERVER_CONFIG_ERROR',
      reason: 'payments_not_configured',
      message: 'Payments are not configured on this server.',
    });
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCode: 'free', totalCreditsRemaining: 100 });
  });

  it('uses the sandbox in production only with BILLING_SANDBOX=true, and says so', async () => {
    const prod = await startTestApp({
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://localhost',
      BILLING_SANDBOX: 'true',
    });
    apps.push(prod);
    const { call } = await ownerOn(prod);
    expect((await call('GET', '/api/openrouter/plans')).body.payments).toBe('sandbox');
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' });
    expect(started.status).toBe(200);
    const page = await call('GET', `/api/billing/sandbox/checkouts/${checkoutId(started.body.url)}`);
    expect(page.body).toMatchObject({ sandbox: true, status: 'open' });
  });
});

describe('promotions are chosen by the server', () => {
  it('refuses a made-up couponId', async () => {
    const { call } = await ownerOn(t);
    const started = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_growth_month_3000',
      couponId: 'sb_coupon_everything_free',
    });
    expect(started.status).toBe(422);
    expect(started.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'couponId' });
  });

  it('refuses a Growth-only promotion on Scale and on a yearly Growth plan, by code or by coupon', async () => {
    const { call } = await ownerOn(t);
    for (const payload of [
      { priceId: 'sb_scale_month_10000', promoCode: 'FIRSTMONTH69' },
      { priceId: 'sb_scale_month_10000', couponId: 'sb_coupon_first_month_69' },
      { priceId: 'sb_growth_year_3000', promoCode: 'firstmonth69' },
    ]) {
      const started = await call('POST', '/api/stripe/create-checkout', payload);
      expect(started.status, JSON.stringify(payload)).toBe(422);
      expect(started.body.error.message).toBe('That promo code does not apply to this plan.');
    }
  });

  it('refuses an unknown promo code instead of falling back to another offer', async () => {
    const { call } = await ownerOn(t);
    const started = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_growth_month_3000',
      promoCode: 'NOPE',
    });
    expect(started.status).toBe(422);
    expect(started.body.error).toMatchObject({ field: 'promoCode', message: 'That promo code is not valid.' });
  });

  it('applies a valid promotion from its code and charges the discounted first invoice', async () => {
    const { call, agency } = await ownerOn(t);
    const started = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_growth_month_3000',
      promoCode: 'FIRSTMONTH69',
    });
    expect(started.status).toBe(200);
    const id = checkoutId(started.body.url);
    expect((await call('GET', `/api/billing/sandbox/checkouts/${id}`)).body.couponId).toBe('sb_coupon_first_month_69');
    expect((await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).status).toBe(200);
    const invoices = await billingSandboxRows(t, agency.accountId, 'invoice');
    expect(invoices.map((invoice) => invoice.amountPaid)).toEqual([2449]);
  });
});

describe('one live subscription per account', () => {
  it('expires the first open checkout when a second opens; the first cannot be paid', async () => {
    const { call } = await ownerOn(t);
    const first = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    const second = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_scale_month_10000' });
    const firstId = checkoutId(first.body.url);
    expect((await call('GET', `/api/billing/sandbox/checkouts/${firstId}`)).body.status).toBe('expired');
    const late = await call('POST', `/api/billing/sandbox/checkouts/${firstId}/complete`, { outcome: 'pay' });
    expect(late.status).toBe(409);
    expect(late.body.error.reason).toBe('checkout_expired');
    const paid = await call('POST', `/api/billing/sandbox/checkouts/${checkoutId(second.body.url)}/complete`, {
      outcome: 'pay',
    });
    expect(paid.body.status).toBe('paid');
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCode: 'scale_monthly', planCreditLimit: 10000 });
  });

  it('two checkouts opened and paid at once leave one subscription; the other is cancelled and refunded', async () => {
    const { call, agency } = await ownerOn(t);
    // Both opened before either expires the other (two tabs racing).
    const [a, b] = await Promise.all([
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' }),
    ]);
    const results = await Promise.all(
      [a, b].map((started) =>
        call('POST', `/api/billing/sandbox/checkouts/${checkoutId(started.body.url)}/complete`, { outcome: 'pay' }),
      ),
    );
    expect(results.filter((result) => result.body.status === 'paid').length).toBeGreaterThanOrEqual(1);
    const subs = await billingSandboxRows(t, agency.accountId, 'subscription');
    expect(subs.filter((sub) => sub.status !== 'canceled')).toHaveLength(1);
    const refunded = (await billingSandboxRows(t, agency.accountId, 'invoice')).filter((invoice) => invoice.refunded);
    expect(refunded).toHaveLength(subs.length - 1);
    const usage = await call('GET', '/api/openrouter/usage');
    // The plan's 3,000 credits once, never twice.
    expect(usage.body.balance.totalCreditsRemaining).toBe(3000);
  });

  it('two first checkouts at once make one customer', async () => {
    const { call, agency } = await ownerOn(t);
    await Promise.all([
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' }),
    ]);
    expect(await billingSandboxRows(t, agency.accountId, 'customer')).toHaveLength(1);
  });
});
