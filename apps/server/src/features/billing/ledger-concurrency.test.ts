import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../platform/deps';
import { seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { getBalance, spendStrict } from './ledger';
import { addGrant, lockAccount, spendCredits, sumEntries } from './ledger-repo';
import { creditGrants } from './schema';

let deps: Deps;
let close: () => Promise<void>;
let n = 0;
const newAccount = async () => {
  n += 1;
  const seeded = await seedAgency(deps.db, {
    accountName: `Concurrency ${n}`,
    owner: { email: `conc${n}-${Date.now()}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  return seeded.accountId;
};

beforeAll(async () => {
  const opened = await openTestDeps({ FREE_PLAN_CREDITS: '10' });
  deps = opened.deps;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

const remainingSum = async (accountId: string) => {
  const grants = await deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, accountId));
  expect(grants.every((grant) => grant.remaining >= 0 && grant.remaining <= grant.amount)).toBe(true);
  return Math.round(grants.reduce((sum, grant) => sum + grant.remaining, 0) * 1e6) / 1e6;
};

describe('ledger under concurrency', () => {
  it('100 concurrent spends against a balance covering 10 give exactly 10 successes', async () => {
    const accountId = await newAccount();
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => spendStrict(deps, { accountId, credits: 1, idempotencyKey: `c-${i}` })),
    );
    const ok = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter(
      (result) =>
        result.status === 'rejected' && (result.reason as { code?: string }).code === 'BILLING_INSUFFICIENT_CREDITS',
    );
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(90);
    expect(await getBalance(deps, accountId)).toBe(0);
    expect(await remainingSum(accountId)).toBe(0);
  }, 60_000);

  it('the same spend replayed ten times at once changes the balance once', async () => {
    const accountId = await newAccount();
    await Promise.allSettled(
      Array.from({ length: 10 }, () => spendStrict(deps, { accountId, credits: 3, idempotencyKey: 'same' })),
    );
    expect(await getBalance(deps, accountId)).toBe(7);
  }, 60_000);

  it('keeps balance = sum of entries = sum of grants, never below zero, over random operations', async () => {
    type Op =
      | { type: 'grant'; kind: 'bonus' | 'promo' | 'plan'; amount: number; key: number; expiresIn: number | null }
      | { type: 'spend'; amount: number; key: number; strict: boolean }
      | { type: 'advance'; days: number };
    const op = fc.oneof(
      fc.record({
        type: fc.constant('grant' as const),
        kind: fc.constantFrom('bonus' as const, 'promo' as const, 'plan' as const),
        amount: fc.integer({ min: 0, max: 500 }).map((value) => value / 4),
        key: fc.integer({ min: 0, max: 5 }),
        expiresIn: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
      }),
      fc.record({
        type: fc.constant('spend' as const),
        amount: fc.integer({ min: 0, max: 400 }).map((value) => value / 8),
        key: fc.integer({ min: 0, max: 8 }),
        strict: fc.boolean(),
      }),
      fc.record({ type: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 20 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops: Op[]) => {
        const accountId = await newAccount();
        let now = new Date('2026-01-01T00:00:00Z');
        const seenGrants = new Set<number>();
        const seenSpends = new Set<number>();
        for (const step of ops) {
          if (step.type === 'advance') {
            now = new Date(now.getTime() + step.days * 86_400_000);
            continue;
          }
          const before = await deps.db.transaction(async (tx) => {
            await lockAccount(tx, accountId, 10, now);
            return sumEntries(tx, accountId);
          });
          if (step.type === 'grant') {
            const created = await deps.db.transaction(async (tx) => {
              await lockAccount(tx, accountId, 10, now);
              return addGrant(tx, {
                accountId,
                kind: step.kind,
                amount: step.amount,
                sourceKey: `g${step.key}`,
                expiresAt: step.expiresIn ? new Date(now.getTime() + step.expiresIn * 86_400_000) : null,
              });
            });
            expect(created).toBe(!seenGrants.has(step.key));
            seenGrants.add(step.key);
            const after = await sumEntries(deps.db, accountId);
            expect(after).toBeCloseTo(created ? before + step.amount : before, 6);
          } else {
            let refused = false;
            let duplicate = false;
            try {
              duplicate = (
                await deps.db.transaction(async (tx) => {
                  await lockAccount(tx, accountId, 10, now);
                  return spendCredits(tx, {
                    accountId,
                    amount: step.amount,
                    idempotencyKey: `s${step.key}`,
                    strict: step.strict,
                  });
                })
              ).duplicate;
            } catch (error) {
              expect((error as { code?: string }).code).toBe('BILLING_INSUFFICIENT_CREDITS');
              refused = true;
            }
            expect(duplicate).toBe(seenSpends.has(step.key));
            if (!refused) seenSpends.add(step.key);
            const after = await sumEntries(deps.db, accountId);
            if (refused || duplicate) expect(after).toBeCloseTo(before, 6);
            else expect(after).toBeCloseTo(Math.max(0, before - step.amount), 6);
            if (refused) expect(before).toBeLessThan(step.amount);
          }
          const balance = await sumEntries(deps.db, accountId);
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(await remainingSum(accountId)).toBeCloseTo(balance, 6);
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
