/**
 * Auto-recharge turned on before any card is saved (sandbox provider, over HTTP): the missing card
 * is reported without using the hourly slot, and once a pack is bought (which saves the sandbox
 * card) the next low balance recharges.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settleReactions } from '../../testing/reactions';
import { commissions } from '../affiliate/schema';
import { debitUsages } from './ledger';
import { settleBalanceChecks } from './low-balance';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t.close();
});

describe('auto-recharge without a saved card', () => {
  it('retries once a pack has been bought, without waiting for the hour; the recharge earns the referrer its commission', async () => {
    const referrer = await seedAgency(t.deps.db, {
      accountName: 'Referrer',
      owner: { email: 'edges-referrer@example.test', name: 'Referrer' },
      subaccounts: ['Main'],
    });
    const referrerCookie = await t.cookieFor(referrer.ownerId);
    const code = (await t.app.inject({ url: '/api/affiliate', headers: { cookie: referrerCookie } })).json().code;
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Recharge edges',
      owner: { email: 'edges-recharge@example.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const subaccountId = agency.subaccountIds[0] as string;
    const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': subaccountId };
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
          subaccountId,
          model: 'offline-mini',
          inputTokens: 10,
          outputTokens: 10,
          credits,
          idempotencyKey: `recharge-edge-${spent}`,
          source: 'test',
        },
      ]);
      await settleBalanceChecks();
      await settleReactions(t.deps);
    };
    expect((await call('POST', '/api/affiliate/attribute', { code })).body.attributed).toBe(true);
    const balance = async () => (await call('GET', '/api/billing/overview')).body.balance as number;

    const set = await call('PUT', '/api/billing/auto-recharge', {
      enabled: true,
      thresholdCredits: 50,
      packPriceId: 'sb_pack_500',
    });
    expect(set.status).toBe(200);
    await spend(60); // 40 left, no card at all yet
    expect(await balance()).toBe(40);
    expect((await call('GET', '/api/billing/overview')).body.autoRecharge.lastResult).toMatch(
      /No saved payment method/,
    );

    // A checkout opened but not paid saves no card either: still no charge, still no slot used.
    const started = await call('POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' });
    await spend(1); // 39
    expect(await balance()).toBe(39);

    // Paying it saves the (sandbox) card and adds 500 credits.
    const id = String(started.body.url).split('/billing/sandbox/')[1] as string;
    expect((await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).body.status).toBe(
      'paid',
    );
    expect(await balance()).toBe(539);
    await spend(500); // 39 left: below the threshold again, now with a card
    expect(await balance()).toBe(539);
    expect((await call('GET', '/api/billing/overview')).body.autoRecharge.lastResult).toMatch(
      /bought 500 credits pack for \$25 \(sandbox, no real charge\)/,
    );
    // The pack bought at checkout and the auto-recharge each earn 30% of $25.
    await settleReactions(t.deps);
    const earned = await t.deps.db.select().from(commissions).where(eq(commissions.affiliateUserId, referrer.ownerId));
    expect(earned.map((row) => row.amount)).toEqual([750, 750]);
  });
});
