import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { memberships, subaccounts } from '../tenancy/schema';
import { debitUsages } from './ledger';
import { assertDemoTier, assertFeature } from './limits';

let t: TestApp;
let n = 0;

const newOwner = async (subaccounts = ['Main']) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Flow ${n}`,
    owner: { email: `flow${n}@example.test`, name: 'Owner' },
    subaccounts,
  });
  const cookie = await t.cookieFor(agency.ownerId);
  const headers = { cookie, 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  return { agency, call };
};

const subscribe = async (call: Awaited<ReturnType<typeof newOwner>>['call'], priceId: string) => {
  const started = await call('POST', '/api/stripe/create-checkout', { priceId });
  expect(started.status).toBe(200);
  const id = String(started.body.url).split('/billing/sandbox/')[1];
  const paid = await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
  expect(paid.body.status).toBe('paid');
  return id as string;
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100', BILLING_PROMO_CODES: 'WELCOME100:100' });
});
afterAll(async () => {
  await t?.close();
});

describe('plans, checkout and credits (sandbox provider)', () => {
  it('serves the plan catalog and live pricing', async () => {
    const { call } = await newOwner();
    const catalog = await call('GET', '/api/openrouter/plans');
    expect(Object.keys(catalog.body.plans)).toEqual(expect.arrayContaining(['starter', 'growth', 'scale', 'secret']));
    expect(catalog.body.plans.starter[0]).toMatchObject({ tier_code: 'starter_500', credit_limit: 500, price: 25 });
    const pricing = await call('GET', '/api/pricing/plans');
    expect(pricing.body.plans.growth).toContainEqual({
      billingInterval: 'year',
      price: 568.8,
      stripePriceId: 'sb_growth_year_3000',
      tierCode: 'growth_3000',
    });
  });

  it('starts on the free plan and gets the plan credits after a sandbox checkout', async () => {
    const { call } = await newOwner();
    const before = await call('GET', '/api/openrouter/usage');
    expect(before.body.balance).toMatchObject({ planCode: 'free', totalCreditsRemaining: 100, usageUsed: 0 });
    await subscribe(call, 'sb_starter_month_500');
    const after = await call('GET', '/api/openrouter/usage');
    expect(after.body.balance).toMatchObject({
      planCode: 'starter_monthly',
      tierCode: 'starter_500',
      planCreditLimit: 500,
      totalCreditsRemaining: 500,
    });
    const details = await call('GET', '/stripe/subscription-details');
    expect(details.body).toEqual({
      hasSubscription: true,
      subscription: { amount: 2500, priceId: 'sb_starter_month_500' },
    });
    const again = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_starter_month_500' });
    expect(again.body).toEqual({ error: 'You already have an active subscription!', hasActiveSubscription: true });
    const other = await call('POST', '/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    expect(other.body).toEqual({ useUpgradeFlow: true, newPriceId: 'sb_growth_month_3000' });
  });

  it('a checkout completed ten times at once grants its credits once', async () => {
    const { call } = await newOwner();
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    const id = String(started.body.url).split('/billing/sandbox/')[1];
    await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' }),
      ),
    );
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({
      tierCode: 'growth_3000',
      planCreditLimit: 3000,
      totalCreditsRemaining: 3000,
    });
  });

  it('the secret-page Starter adds 1,000 bonus credits that do not expire', async () => {
    const { call } = await newOwner();
    await subscribe(call, 'sb_secret_secret_starter');
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({
      planCreditLimit: 500,
      bonusCreditsRemaining: 1000,
      totalCreditsRemaining: 1500,
    });
  });

  it("the discount page's Starter is charged 0.75 of its price and adds the 1,000 FOREVER bonus credits", async () => {
    const { call } = await newOwner();
    const catalog = await call('GET', '/api/openrouter/plans');
    expect(catalog.body.plans.discount.map((tier: { price: number }) => tier.price)).toEqual([
      18.75, 26.25, 33.75, 41.25,
    ]);
    await subscribe(call, 'sb_discount_starter_500');
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCreditLimit: 500, bonusCreditsRemaining: 1000 });
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.invoices).toEqual([expect.objectContaining({ amount: 1875, status: 'paid' })]);
    expect(overview.body.plan).toMatchObject({ amount: 1875, interval: 'month' });
  });

  it('the lifetime plan is charged its list price at 0.75, once', async () => {
    const { call } = await newOwner();
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_secret_mentoring_lifetime' });
    expect(started.status).toBe(200);
    const id = String(started.body.url).split('/billing/sandbox/')[1];
    const paid = await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' });
    expect(paid.body.status).toBe('paid');
    const overview = await call('GET', '/api/billing/overview');
    expect(overview.body.invoices).toEqual([expect.objectContaining({ amount: 700000, status: 'paid' })]);
  });

  it('a declined sandbox card changes nothing', async () => {
    const { call } = await newOwner();
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    const id = String(started.body.url).split('/billing/sandbox/')[1];
    const declined = await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'decline' });
    expect(declined.body).toMatchObject({ status: 'declined', message: 'Your card was declined.' });
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCode: 'free', totalCreditsRemaining: 100 });
  });

  it('upgrades with a preview whose amount matches the charge, then schedules and cancels a downgrade', async () => {
    const { call } = await newOwner();
    await subscribe(call, 'sb_starter_month_1000');
    const preview = await call('POST', '/stripe/preview-upgrade', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
    });
    expect(preview.status).toBe(200);
    const { proration } = preview.body;
    expect(proration.chargeAmount).toBe(7900);
    expect(proration.creditAmount).toBeGreaterThan(3400);
    expect(proration.totalDueNow).toBe(proration.chargeAmount - proration.creditAmount);
    const upgraded = await call('POST', '/api/stripe/upgrade-subscription', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
      prorationDate: proration.prorationDate,
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.proration.amountCharged).toBe(proration.totalDueNow);
    expect(upgraded.body.message).toMatch(/^We charged \$\d+\.\d{2} immediately\.$/);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({
      tierCode: 'growth_3000',
      planCreditLimit: 3000,
      totalCreditsRemaining: 3000,
    });

    const same = await call('POST', '/stripe/preview-upgrade', { newPriceId: 'sb_growth_month_3000' });
    expect(same.status).toBe(409);
    expect(same.body.error.message).toBe('This plan is already active.');

    const scheduled = await call('POST', '/stripe/schedule-downgrade', { newPriceId: 'sb_starter_month_500' });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.scheduledPlan.priceId).toBe('sb_starter_month_500');
    const pending = await call('GET', '/api/openrouter/usage');
    expect(pending.body.balance.scheduledPriceId).toBe('sb_starter_month_500');
    expect(pending.body.balance.scheduledChangeDate).not.toBeNull();
    expect(pending.body.balance.tierCode).toBe('growth_3000');
    const cancelled = await call('POST', '/stripe/cancel-scheduled-downgrade');
    expect(cancelled.status).toBe(200);
    const after = await call('GET', '/api/openrouter/usage');
    expect(after.body.balance).toMatchObject({ scheduledPriceId: null, scheduledChangeDate: null });

    const cancel = await call('POST', '/stripe/cancel-subscription', { cancelAtPeriodEnd: true });
    expect(cancel.body.cancelDate).not.toBeNull();
    expect((await call('GET', '/api/openrouter/usage')).body.balance.cancelAtPeriodEnd).toBe(true);
    await call('POST', '/stripe/resubscribe');
    expect((await call('GET', '/api/openrouter/usage')).body.balance.cancelAtPeriodEnd).toBe(false);
  });

  it('refuses bad input with the spec messages and changes nothing', async () => {
    const { call } = await newOwner();
    const unknown = await call('POST', '/api/stripe/create-checkout', { priceId: 'price_nope' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'BILLING_INVALID_PLAN', field: 'priceId' });
    const noTier = await call('POST', '/api/stripe/upgrade-subscription', { newPriceId: '' });
    expect(noTier.status).toBe(422);
    expect(noTier.body.error.message).toBe('Invalid plan selection - missing price ID. Please try again.');
    const noCode = await call('POST', '/api/openrouter/credits/redeem', { code: '   ' });
    expect(noCode.status).toBe(422);
    expect(noCode.body.error.message).toBe('Promo code is required');
    const noSub = await call('POST', '/stripe/preview-upgrade', { newPriceId: 'sb_growth_month_3000' });
    expect(noSub.status).toBe(409);
    expect(noSub.body.error.code).toBe('BILLING_SUBSCRIPTION_NOT_FOUND');
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ planCode: 'free', totalCreditsRemaining: 100, bonusCreditsTotal: 0 });
  });

  it('redeems a promo code once even when replayed ten times', async () => {
    const { call } = await newOwner();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/api/openrouter/credits/redeem', { code: ' welcome100 ' })),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status === 409)).toHaveLength(9);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ totalCreditsRemaining: 200, bonusCreditsRemaining: 100 });
  });

  it('lists metered usage and limits sub-accounts on the free plan', async () => {
    const { call, agency } = await newOwner();
    await debitUsages(t.deps, [
      {
        accountId: agency.accountId,
        subaccountId: agency.subaccountIds[0] ?? null,
        model: 'offline-mini',
        inputTokens: 40,
        outputTokens: 10,
        credits: 1.5,
        idempotencyKey: 'chat-1',
        source: 'test',
      },
    ]);
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.usageLogs[0]).toMatchObject({ model: 'offline-mini', cost: 1.5, usage_total: 50 });
    expect(usage.body.balance).toMatchObject({ usageUsed: 1.5, totalCreditsRemaining: 98.5 });
    const second = await call('POST', '/api/subaccounts', { accountId: agency.accountId, name: 'Second' });
    expect(second.status).toBe(403);
    expect(second.body.error.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
  });

  it('concurrent sub-account creations cannot pass the plan limit together', async () => {
    const { call, agency } = await newOwner();
    await subscribe(call, 'sb_growth_month_3000');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/api/subaccounts', { accountId: agency.accountId, name: `Client ${i}` }),
      ),
    );
    expect(results.filter((result) => result.status === 201)).toHaveLength(4);
    expect(results.filter((result) => result.status === 403)).toHaveLength(4);
    // A refused sub-account is not kept, nor its memberships: the limit rolls its creation back.
    const kept = await t.deps.db.select().from(subaccounts).where(eq(subaccounts.accountId, agency.accountId));
    expect(kept).toHaveLength(5);
    const members = await t.deps.db
      .select()
      .from(memberships)
      .where(
        inArray(
          memberships.subaccountId,
          kept.map((row) => row.id),
        ),
      );
    expect(members).toHaveLength(5);
    const orphans = await t.deps.db.execute(
      sql`SELECT count(*)::int AS n FROM memberships WHERE subaccount_id NOT IN (SELECT id FROM subaccounts)`,
    );
    expect(rowsOf<{ n: number }>(orphans)[0]?.n).toBe(0);
  });

  it('locks, never deletes, sub-accounts beyond the plan after the selection', async () => {
    const { call, agency } = await newOwner(['One', 'Two', 'Three']);
    const [first, second] = agency.subaccountIds as [string, string];
    for (const subaccountId of [second, second])
      await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId });
    const selection = await call('GET', '/api/billing/subaccount-selection');
    expect(selection.body).toMatchObject({ needsSelection: true, limit: 1 });
    const agentCounts = Object.fromEntries(
      selection.body.subaccounts.map((s: { id: string; agentCount: number }) => [s.id, s.agentCount]),
    );
    expect([agentCounts[first], agentCounts[second]]).toEqual([0, 2]);
    const chosen = agency.subaccountIds[1] as string;
    const after = await call('POST', '/api/billing/subaccount-selection', { subaccountId: chosen });
    expect(after.body.needsSelection).toBe(false);
    expect(after.body.subaccounts).toHaveLength(3);
    expect(
      after.body.subaccounts.filter((s: { locked: boolean }) => !s.locked).map((s: { id: string }) => s.id),
    ).toEqual([chosen]);
  });

  it('at the period end a scheduled downgrade to Starter asks which sub-account stays active', async () => {
    const { call } = await newOwner(['One', 'Two', 'Three']);
    await subscribe(call, 'sb_growth_month_3000');
    expect((await call('GET', '/api/billing/subaccount-selection')).body.needsSelection).toBe(false);
    await call('POST', '/stripe/schedule-downgrade', { newPriceId: 'sb_starter_month_500' });
    const renewed = await call('POST', '/api/billing/sandbox/renew');
    expect(renewed.body).toEqual({ status: 'active', priceId: 'sb_starter_month_500' });
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance).toMatchObject({ tierCode: 'starter_500', planCreditLimit: 500, scheduledPriceId: null });
    expect((await call('GET', '/api/billing/subaccount-selection')).body).toMatchObject({
      needsSelection: true,
      limit: 1,
    });
    await call('POST', '/stripe/cancel-subscription', { cancelAtPeriodEnd: true });
    expect((await call('POST', '/api/billing/sandbox/renew')).body.status).toBe('canceled');
    const after = await call('GET', '/api/openrouter/usage');
    expect(after.body.balance).toMatchObject({ planCode: 'free', cancelAtPeriodEnd: false });
    expect((await call('GET', '/stripe/subscription-details')).body.hasSubscription).toBe(false);
  });

  it('gates marketplace, white-label and demo tiers by plan', async () => {
    const { call, agency } = await newOwner();
    await expect(assertFeature(t.deps, agency.accountId, 'marketplace')).rejects.toMatchObject({
      code: 'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
      status: 403,
    });
    await expect(assertDemoTier(t.deps, agency.accountId, 'basic')).resolves.toBeUndefined();
    await expect(assertDemoTier(t.deps, agency.accountId, 'advanced')).rejects.toMatchObject({ status: 403 });
    await subscribe(call, 'sb_growth_month_3000');
    await expect(assertFeature(t.deps, agency.accountId, 'marketplace')).resolves.toBeUndefined();
    await expect(assertDemoTier(t.deps, agency.accountId, 'advanced')).resolves.toBeUndefined();
    await expect(assertFeature(t.deps, agency.accountId, 'whitelabel_branding')).rejects.toMatchObject({ status: 403 });
  });

  it('answers the access check for the caller only', async () => {
    const { call, agency } = await newOwner();
    expect((await call('GET', `/auth/check-access?userId=${agency.ownerId}`)).body).toEqual({ hasAccess: false });
    await subscribe(call, 'sb_starter_month_500');
    expect((await call('GET', `/auth/check-access?userId=${agency.ownerId}`)).body).toEqual({ hasAccess: true });
    expect((await call('GET', '/auth/check-access?userId=usr_other')).body).toEqual({ hasAccess: false });
  });
});
