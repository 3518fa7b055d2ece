import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { debitUsages, ensureCanSpend, getBalance, grantCredits, spendStrict } from './ledger';
import { sumEntries } from './ledger-repo';
import { creditEntries, creditGrants, usageLogs } from './schema';

let t: TestApp;
let n = 0;
const newAccount = async () => {
  n += 1;
  const seeded = await seedAgency(t.deps.db, {
    accountName: `Ledger ${n}`,
    owner: { email: `ledger${n}-${Date.now()}@example.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  return seeded;
};

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t?.close();
});

describe('credit ledger', () => {
  it('starts every account with the free plan grant', async () => {
    const { accountId } = await newAccount();
    expect(await getBalance(t.deps, accountId)).toBe(100);
    expect(await getBalance(t.deps, accountId)).toBe(100);
  });

  it('refuses a spend the balance cannot cover with the spec message', async () => {
    const { accountId } = await newAccount();
    await expect(ensureCanSpend(t.deps, accountId, 100)).resolves.toBeUndefined();
    await expect(ensureCanSpend(t.deps, accountId, 100.5)).rejects.toMatchObject({
      code: 'BILLING_INSUFFICIENT_CREDITS',
      status: 402,
      message: 'Insufficient credits. Please add more to continue.',
    });
  });

  it('meters a call once per idempotency key, logging tokens and cost', async () => {
    const { accountId, subaccountIds } = await newAccount();
    const usage = {
      accountId,
      subaccountId: subaccountIds[0] ?? null,
      model: 'offline-1',
      inputTokens: 120,
      outputTokens: 30,
      credits: 2.5,
      idempotencyKey: 'call-1',
      source: 'test',
    };
    for (let i = 0; i < 10; i += 1) await debitUsages(t.deps, [usage]);
    expect(await getBalance(t.deps, accountId)).toBe(97.5);
    const logs = await t.deps.db.select().from(usageLogs).where(eq(usageLogs.accountId, accountId));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      model: 'offline-1',
      inputTokens: 120,
      outputTokens: 30,
      credits: 2.5,
      charged: 2.5,
    });
  });

  it('never drives the balance below zero when metering more than is left', async () => {
    const { accountId } = await newAccount();
    await debitUsages(t.deps, [
      {
        accountId,
        subaccountId: null,
        model: 'm',
        inputTokens: 1,
        outputTokens: 1,
        credits: 250,
        idempotencyKey: 'big',
        source: 'test',
      },
    ]);
    expect(await getBalance(t.deps, accountId)).toBe(0);
    const grants = await t.deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, accountId));
    expect(grants.every((grant) => grant.remaining >= 0)).toBe(true);
    await expect(ensureCanSpend(t.deps, accountId, 0)).rejects.toMatchObject({ code: 'BILLING_INSUFFICIENT_CREDITS' });
  });

  it('spends plan credits before bonus credits and grants once per source key', async () => {
    const { accountId } = await newAccount();
    expect(await grantCredits(t.deps, { accountId, kind: 'bonus', credits: 50, sourceKey: 'bonus-1' })).toBe(true);
    expect(await grantCredits(t.deps, { accountId, kind: 'bonus', credits: 50, sourceKey: 'bonus-1' })).toBe(false);
    await spendStrict(t.deps, { accountId, credits: 120, idempotencyKey: 's1' });
    const grants = await t.deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, accountId));
    expect(grants.find((grant) => grant.kind === 'plan')?.remaining).toBe(0);
    expect(grants.find((grant) => grant.kind === 'bonus')?.remaining).toBe(30);
    expect(await sumEntries(t.deps.db, accountId)).toBe(30);
  });

  it('meters a batch in one go: across grants, once per key, the repeat of a key ignored', async () => {
    const { accountId, subaccountIds } = await newAccount();
    await grantCredits(t.deps, { accountId, kind: 'bonus', credits: 20, sourceKey: 'bonus-batch' });
    const usage = (key: string, credits: number) => ({
      accountId,
      subaccountId: subaccountIds[0] ?? null,
      model: 'offline-1',
      inputTokens: 10,
      outputTokens: 5,
      credits,
      idempotencyKey: key,
      source: 'test',
    });
    await debitUsages(t.deps, [usage('b1', 60), usage('b2', 50), usage('b1', 60), usage('b3', 20)]);
    await debitUsages(t.deps, [usage('b2', 50), usage('b4', 1)]);
    const logs = await t.deps.db.select().from(usageLogs).where(eq(usageLogs.accountId, accountId));
    expect(logs.map((log) => [log.idempotencyKey, log.credits, log.charged]).sort()).toEqual([
      ['b1', 60, 60],
      ['b2', 50, 50],
      ['b3', 20, 10],
      ['b4', 1, 0],
    ]);
    const grants = await t.deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, accountId));
    expect(grants.map((grant) => grant.remaining)).toEqual([0, 0]);
    expect(await sumEntries(t.deps.db, accountId)).toBe(0);
    // One ledger debit per batch, keyed by its first new call.
    const debits = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.accountId, accountId), eq(creditEntries.kind, 'usage_debit')));
    expect(debits.map((entry) => [entry.idempotencyKey, entry.amount, entry.description]).sort()).toEqual([
      ['usage:b1', -120, '3 model calls · offline-1'],
      ['usage:b4', 0, 'test · offline-1'],
    ]);
  });

  it('meters the same call sent twice at once only once', async () => {
    const { accountId } = await newAccount();
    const usage = {
      accountId,
      subaccountId: null,
      model: 'offline-1',
      inputTokens: 10,
      outputTokens: 5,
      credits: 7,
      idempotencyKey: 'twice',
      source: 'test',
    };
    await Promise.all([debitUsages(t.deps, [usage]), debitUsages(t.deps, [usage]), debitUsages(t.deps, [usage])]);
    expect(await getBalance(t.deps, accountId)).toBe(93);
    const logs = await t.deps.db.select().from(usageLogs).where(eq(usageLogs.accountId, accountId));
    expect(logs.map((log) => [log.idempotencyKey, log.charged])).toEqual([['twice', 7]]);
    const debits = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.accountId, accountId), eq(creditEntries.kind, 'usage_debit')));
    expect(debits).toHaveLength(1);
  });

  it('database refuses a grant remaining below zero', async () => {
    const { accountId } = await newAccount();
    await getBalance(t.deps, accountId);
    await expect(
      t.deps.db.update(creditGrants).set({ remaining: -1 }).where(eq(creditGrants.accountId, accountId)),
    ).rejects.toThrow();
  });
});
