/**
 * A promo code remembered from a link applies only where it applies (sandbox provider, over HTTP):
 * a credit pack, or a plan it is not for, is bought at full price without it, and the code still
 * applies to its own plan afterwards. A code the page names itself is still checked strictly.
 */

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgencyCaller } from '../../testing/agency-caller';
import { startTestApp, type TestApp } from '../../testing/harness';
import { sandboxObjects } from './schema';

let t: TestApp;
let n = 0;

const owner = async () => {
  n += 1;
  return newAgencyCaller(t, `Promo edges ${n}`, `edges-promo${n}@example.test`);
};

const checkoutId = (url: string) => String(url).split('/billing/sandbox/')[1] as string;

const paidAmounts = async (accountId: string) => {
  const rows = await t.deps.db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'invoice'), eq(sandboxObjects.accountId, accountId)));
  return rows.map((row) => (row.data as { amountPaid: number }).amountPaid).sort((a, b) => a - b);
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t.close();
});

describe('a remembered promo code never blocks another purchase', () => {
  it('buys a credit pack at full price without the code, then applies the code to its plan', async () => {
    const { call, agency } = await owner();
    const pack = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_pack_500',
      mode: 'payment',
      rememberedPromoCode: 'FIRSTMONTH69',
    });
    expect(pack.status).toBe(200);
    expect(pack.body.promoCodeApplied).toBe(false);
    const packPage = await call('GET', `/api/billing/sandbox/checkouts/${checkoutId(pack.body.url)}`);
    expect(packPage.body.couponId ?? null).toBeNull();
    await call('POST', `/api/billing/sandbox/checkouts/${checkoutId(pack.body.url)}/complete`, { outcome: 'pay' });

    const plan = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_growth_month_3000',
      rememberedPromoCode: 'FIRSTMONTH69',
    });
    expect(plan.status).toBe(200);
    expect(plan.body.promoCodeApplied).toBe(true);
    await call('POST', `/api/billing/sandbox/checkouts/${checkoutId(plan.body.url)}/complete`, { outcome: 'pay' });
    expect(await paidAmounts(agency.accountId)).toEqual([2449, 2500]);
  });

  it('buys a plan the code is not for at full price', async () => {
    const { call, agency } = await owner();
    const plan = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_scale_month_10000',
      rememberedPromoCode: 'FIRSTMONTH69',
    });
    expect(plan.status).toBe(200);
    expect(plan.body.promoCodeApplied).toBe(false);
    await call('POST', `/api/billing/sandbox/checkouts/${checkoutId(plan.body.url)}/complete`, { outcome: 'pay' });
    const usage = await call('GET', '/api/openrouter/usage');
    expect(usage.body.balance.planCode).toBe('scale_monthly');
    expect((await paidAmounts(agency.accountId))[0]).toBeGreaterThan(0);
    expect(await paidAmounts(agency.accountId)).toHaveLength(1);
  });

  it('ignores an unknown remembered code, and still refuses a wrong code the page names', async () => {
    const { call } = await owner();
    const unknown = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_pack_500',
      mode: 'payment',
      rememberedPromoCode: 'NOPE',
    });
    expect(unknown.status).toBe(200);
    const named = await call('POST', '/api/stripe/create-checkout', {
      priceId: 'sb_scale_month_10000',
      promoCode: 'FIRSTMONTH69',
    });
    expect(named.status).toBe(422);
    expect(named.body.error.message).toBe('That promo code does not apply to this plan.');
  });
});
