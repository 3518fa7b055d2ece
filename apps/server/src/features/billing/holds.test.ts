/**
 * Spending that cannot overshoot: model calls hold their estimate before they start and settle
 * the real cost after (or release the hold when they fail), so calls at once never spend more
 * than the balance, and every admitted call is paid in full.
 */
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../platform/deps';
import { seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { flushMetering, meter, releaseCredits, reserveCredits } from '../llm/credits';
import { getBalance, grantCredits } from './ledger';
import { creditHolds, usageLogs } from './schema';

let deps: Deps;
let close: () => Promise<void>;
let n = 0;

const newAccount = async (credits: number) => {
  n += 1;
  const seeded = await seedAgency(deps.db, {
    accountName: `Holds ${n}`,
    owner: { email: `holds${n}-${Date.now()}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  await grantCredits(deps, { accountId: seeded.accountId, kind: 'bonus', credits, sourceKey: 'test:start' });
  return seeded.accountId;
};

/** One model call as the gateway makes it: hold, run, then meter or release. */
const call = async (accountId: string, estimate: number, cost: number, fails: boolean, key: string) => {
  const holdId = await reserveCredits(deps, { accountId, estimate });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
  if (fails) {
    releaseCredits(deps, accountId, holdId);
    return 0;
  }
  meter(deps, {
    accountId,
    subaccountId: null,
    model: 'test-model',
    inputTokens: 10,
    outputTokens: 10,
    credits: cost,
    idempotencyKey: key,
    source: 'test',
    holdId,
  });
  return cost;
};

const totals = async (accountId: string) => {
  const [row] = await deps.db
    .select({
      cost: sql<string>`coalesce(sum(${usageLogs.credits}), 0)`,
      charged: sql<string>`coalesce(sum(${usageLogs.charged}), 0)`,
    })
    .from(usageLogs)
    .where(eq(usageLogs.accountId, accountId));
  const holds = await deps.db.select().from(creditHolds).where(eq(creditHolds.accountId, accountId));
  return { cost: Number(row?.cost ?? 0), charged: Number(row?.charged ?? 0), holds: holds.length };
};

beforeAll(async () => {
  const opened = await openTestDeps({ FREE_PLAN_CREDITS: '0' });
  deps = opened.deps;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

describe('holds before model calls', () => {
  it('50 calls at once with credits for about one: one is answered, the rest are refused, nothing is unpaid', async () => {
    const accountId = await newAccount(1.5);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => call(accountId, 1, 0.9, false, `fifty-${i}`)),
    );
    await flushMetering();
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((result) => result.status === 'rejected');
    expect(
      refused.every((result) => (result.reason as { code?: string }).code === 'BILLING_INSUFFICIENT_CREDITS'),
    ).toBe(true);
    const after = await totals(accountId);
    expect(after).toEqual({ cost: 0.9, charged: 0.9, holds: 0 });
    expect(await getBalance(deps, accountId)).toBe(0.6);
  }, 60_000);

  it('120 calls metered together are each paid once, their holds gone (several debit transactions on PGlite)', async () => {
    const accountId = await newAccount(100);
    const paid = await Promise.all(
      Array.from({ length: 120 }, (_, i) => call(accountId, 0.5, 0.25, false, `many-${i}`)),
    );
    expect(paid.every((cost) => cost === 0.25)).toBe(true);
    await flushMetering();
    expect(await totals(accountId)).toEqual({ cost: 30, charged: 30, holds: 0 });
    expect(await getBalance(deps, accountId)).toBe(70);
    const [logged] = await deps.db
      .select({ calls: sql<number>`count(distinct ${usageLogs.idempotencyKey})::int` })
      .from(usageLogs)
      .where(eq(usageLogs.accountId, accountId));
    expect(logged?.calls).toBe(120);
  }, 60_000);

  it('a failed call releases its hold, so the balance is free again', async () => {
    const accountId = await newAccount(1);
    await call(accountId, 1, 0, true, 'failing');
    await flushMetering();
    expect((await totals(accountId)).holds).toBe(0);
    await expect(call(accountId, 1, 1, false, 'after')).resolves.toBe(1);
  });

  it('property: concurrent calls never spend more than the balance and every admitted call is paid in full', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(
          fc.record({
            estimate: fc.integer({ min: 1, max: 1000 }).map((value) => value / 100),
            share: fc.integer({ min: 0, max: 100 }),
            fails: fc.integer({ min: 0, max: 4 }).map((value) => value === 0),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        async (balance, calls) => {
          const accountId = await newAccount(balance);
          const settled = await Promise.allSettled(
            calls.map((planned, i) =>
              call(
                accountId,
                planned.estimate,
                Math.round(planned.estimate * planned.share) / 100,
                planned.fails,
                `p-${i}`,
              ),
            ),
          );
          await flushMetering();
          const after = await totals(accountId);
          const maxEstimate = Math.max(...calls.map((planned) => planned.estimate));
          const admittedCost = settled.reduce(
            (sum, result) => sum + (result.status === 'fulfilled' ? result.value : 0),
            0,
          );
          // Never more than the balance (plus one call's estimate, the bound the product promises).
          expect(after.cost).toBeLessThanOrEqual(balance + maxEstimate + 1e-6);
          expect(after.cost).toBeLessThanOrEqual(balance + 1e-6);
          // Every admitted call was paid in full, and no hold is left behind.
          expect(Math.abs(after.charged - after.cost)).toBeLessThan(1e-6);
          expect(Math.abs(after.cost - admittedCost)).toBeLessThan(1e-4);
          expect(after.holds).toBe(0);
          expect(await getBalance(deps, accountId)).toBeCloseTo(balance - after.cost, 5);
        },
      ),
      { numRuns: 30 },
    );
  }, 180_000);
});
