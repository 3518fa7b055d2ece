/**
 * Metering gathers model calls before writing them: a quiet server pays a debit transaction once
 * for seconds of calls, a busy one writes each full batch at once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../platform/deps';
import { seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { until } from '../../testing/until';
import { grantCredits } from '../billing/ledger';
import { usageLogs } from '../billing/schema';
import { flushMetering, METERING_BATCH, meter } from './credits';

let deps: Deps;
let close: () => Promise<void>;

const accountWithCredits = async (name: string) => {
  const seeded = await seedAgency(deps.db, {
    accountName: name,
    owner: { email: `${name.toLowerCase().replace(/\s/g, '-')}@metering.test`, name: 'Owner' },
    subaccounts: ['Main'],
  });
  await grantCredits(deps, { accountId: seeded.accountId, kind: 'bonus', credits: 10_000, sourceKey: 'test:start' });
  return seeded.accountId;
};

const meterCalls = (accountId: string, count: number, prefix: string) => {
  for (let i = 0; i < count; i += 1) {
    meter(deps, {
      accountId,
      subaccountId: null,
      model: 'test-model',
      inputTokens: 10,
      outputTokens: 10,
      credits: 0.01,
      idempotencyKey: `${prefix}:${i}`,
      source: 'test',
    });
  }
};

const logged = async (accountId: string) =>
  (await deps.db.select({ id: usageLogs.id }).from(usageLogs).where(eq(usageLogs.accountId, accountId))).length;

beforeAll(async () => {
  ({ deps, close } = await openTestDeps());
});
afterAll(async () => {
  await flushMetering();
  await close();
});

describe('metering', () => {
  it('gathers the calls of a quiet server for longer than a second', async () => {
    const accountId = await accountWithCredits('Quiet Agency');
    meterCalls(accountId, 3, 'quiet');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await logged(accountId)).toBe(0);
    await flushMetering();
    expect(await logged(accountId)).toBe(3);
  });

  it('writes a full batch at once', async () => {
    const accountId = await accountWithCredits('Busy Agency');
    const batch = deps.database.driver === 'pglite' ? METERING_BATCH.embedded : METERING_BATCH.pooled;
    meterCalls(accountId, batch, 'busy');
    expect(
      await until(
        () => logged(accountId),
        (count) => count === batch,
        3_000,
      ),
    ).toBe(batch);
  });
});
