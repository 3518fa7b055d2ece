/**
 * One open checkout per account and purpose (sandbox provider, over HTTP): checkout requests at the
 * same moment share one session; a credit pack has its own; a new one opens once the session is
 * paid or expired.
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
  return newAgencyCaller(t, `Edges ${n}`, `edges-checkout${n}@example.test`);
};

const checkoutId = (url: string) => String(url).split('/billing/sandbox/')[1] as string;

const openSessions = async (accountId: string) => {
  const rows = await t.deps.db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'checkout'), eq(sandboxObjects.accountId, accountId)));
  return rows.map((row) => row.data as { id: string; status: string; mode: string }).filter((c) => c.status === 'open');
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t.close();
});

describe('one open checkout per account and purpose', () => {
  it('20 checkouts of one plan at once give one payable session', async () => {
    const { call, agency } = await owner();
    const started = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' }),
      ),
    );
    expect(started.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(started.map((answer) => answer.body.url)).size).toBe(1);
    expect(await openSessions(agency.accountId)).toHaveLength(1);
  });

  it('a credit pack gets its own session beside the plan, and each purpose keeps its one', async () => {
    const { call, agency } = await owner();
    const [plan, pack, planAgain, packAgain] = await Promise.all([
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' }),
      call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' }),
    ]);
    expect(plan.body.url).not.toBe(pack.body.url);
    expect(planAgain.body.url).toBe(plan.body.url);
    expect(packAgain.body.url).toBe(pack.body.url);
    const open = await openSessions(agency.accountId);
    expect(open.map((session) => session.mode).sort()).toEqual(['payment', 'subscription']);
  });

  it('opens a new session once the first is paid', async () => {
    const { call } = await owner();
    const first = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' });
    const paid = await call('POST', `/api/billing/sandbox/checkouts/${checkoutId(first.body.url)}/complete`, {
      outcome: 'pay',
    });
    expect(paid.body.status).toBe('paid');
    const second = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' });
    expect(second.status).toBe(200);
    expect(second.body.url).not.toBe(first.body.url);
    const page = await call('GET', `/api/billing/sandbox/checkouts/${checkoutId(second.body.url)}`);
    expect(page.body.status).toBe('open');
  });

  it('opens a new session once the first has expired, and another plan replaces the open one', async () => {
    const { call, agency } = await owner();
    const first = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    await t.deps.db
      .update(sandboxObjects)
      .set({ data: { ...(await openSessions(agency.accountId))[0], status: 'expired' } })
      .where(eq(sandboxObjects.id, checkoutId(first.body.url)));
    const second = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    expect(second.body.url).not.toBe(first.body.url);
    const other = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_scale_month_10000' });
    expect(other.body.url).not.toBe(second.body.url);
    const open = await openSessions(agency.accountId);
    expect(open.map((session) => session.id)).toEqual([checkoutId(other.body.url)]);
  });
});
