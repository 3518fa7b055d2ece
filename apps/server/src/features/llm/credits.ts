import type { Deps } from '../../platform/deps';
import { debitUsage, ensureCanSpend, getBalance, type UsageInput } from '../billing/ledger';

/**
 * The gateway's side of the credit ledger. The check before a call asks the ledger
 * (ensureCanSpend) and keeps the balance it saw for 2 s, less what this process spent since, so a
 * busy conversation does not run a ledger transaction per turn. Metering of chat replies can be
 * deferred off the reply's path; it is idempotent by key and awaited by flushMetering().
 */

const SNAPSHOT_MS = 2000;
const snapshots = new Map<string, { balance: number; at: number; spent: number }>();
const pending = new Set<Promise<void>>();

export const checkCredits = async (deps: Deps, accountId: string, estimate: number): Promise<void> => {
  const snapshot = snapshots.get(accountId);
  if (snapshot && Date.now() - snapshot.at < SNAPSHOT_MS) {
    const left = snapshot.balance - snapshot.spent;
    if (left > 0 && left >= estimate) return;
  }
  snapshots.delete(accountId);
  await ensureCanSpend(deps, accountId, estimate);
  const balance = await getBalance(deps, accountId);
  snapshots.set(accountId, { balance, at: Date.now(), spent: 0 });
};

export const meter = (deps: Deps, usage: UsageInput, options: { defer?: boolean } = {}): Promise<void> => {
  const snapshot = snapshots.get(usage.accountId);
  if (snapshot) snapshot.spent += usage.credits;
  const work = debitUsage(deps, usage);
  if (!options.defer) return work;
  const tracked = work
    .catch((error) => deps.log.error({ err: error, usage }, 'metering a model call failed'))
    .finally(() => pending.delete(tracked));
  pending.add(tracked);
  return Promise.resolve();
};

/** Waits for deferred metering (tests, shutdown). */
export const flushMetering = async (): Promise<void> => {
  await Promise.allSettled([...pending]);
};
