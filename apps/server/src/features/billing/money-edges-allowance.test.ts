/**
 * A client's allowance counts what finished calls cost, not what they held: with a tiny allowance
 * and calls one after another, each finished call's hold is released at once (its metered cost
 * counted instead), so the client is refused only once it has really used the allowance. Runs on
 * PGlite (holds in memory) and on PostgreSQL (holds as rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeAccount } from '../../platform/account-scope';
import type { Deps } from '../../platform/deps';
import { seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { flushMetering, meter, reserveCredits } from '../llm/credits';
import { listAllowances, setAllowance } from './allowances';
import { getBalance, grantCredits } from './ledger';

let deps: Deps;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = await openTestDeps();
  deps = opened.deps;
  close = opened.close;
});
afterAll(async () => {
  await flushMetering();
  await close();
});

describe('an allowance with calls one after another', () => {
  it('admits calls until the metered use reaches the allowance, before metering has flushed', async () => {
    const seeded = await seedAgency(deps.db, {
      accountName: 'Allowance edges',
      owner: { email: `edges-allowance-${Date.now()}@example.test`, name: 'Owner' },
      subaccounts: ['Client'],
    });
    const { accountId } = seeded;
    const subaccountId = seeded.subaccountIds[0] as string;
    await grantCredits(deps, { accountId, kind: 'bonus', credits: 10, sourceKey: 'test:start' });
    await setAllowance(deps, accountId, subaccountId, 0.005);

    const before = await getBalance(deps, accountId);

    // Each call holds 0.0018 (prompt plus output cap) and really costs 0.0005 (10% of the allowance).
    const chat = async (index: number) => {
      const holdId = await reserveCredits(deps, { accountId, subaccountId, estimate: 0.0018 });
      meter(deps, {
        accountId,
        subaccountId,
        model: 'test-model',
        inputTokens: 10,
        outputTokens: 10,
        credits: 0.0005,
        idempotencyKey: `allowance-edge-${index}`,
        source: 'test',
        holdId,
      });
    };
    // Admitted while what was used (0.0005 a call) plus the next estimate fits: seven calls, with
    // no metering flush between them; the eighth (0.0035 used + 0.0018) is refused.
    for (let index = 0; index < 7; index += 1) await chat(index);
    await expect(chat(7)).rejects.toMatchObject({ code: 'BILLING_INSUFFICIENT_CREDITS', reason: 'allowance_reached' });

    await flushMetering();
    const [client] = (await listAllowances(deps, wholeAccount(accountId))).subaccounts;
    expect(client?.usedThisMonth).toBeCloseTo(0.0035, 6);
    expect(await getBalance(deps, accountId)).toBeCloseTo(before - 0.0035, 6);
  });
});
