import type { Deps } from '../../platform/deps';
import { GroupCommit } from '../../platform/group-commit';
import { TtlCache } from '../../platform/ttl-cache';
import { assertCovers, debitUsages, spendableBalance, type UsageInput } from '../billing/ledger';

/**
 * The gateway's side of the credit ledger. The check before a call asks the ledger
 * (spendableBalance) and keeps the balance it saw for 2 s, less what this process spent since, so a
 * busy conversation does not run a ledger read per turn. Metering is written off the caller's
 * path in batches; it is idempotent by key and awaited by flushMetering().
 */

/** The balance seen per account, kept 2 s, with what this process has metered since. */
const snapshots = new TtlCache<{ balance: number; spent: number }>(2000);

export const checkCredits = async (deps: Deps, accountId: string, estimate: number): Promise<void> => {
  const snapshot = snapshots.get(accountId);
  if (snapshot) {
    const left = snapshot.balance - snapshot.spent;
    if (left > 0 && left >= estimate) return;
    snapshots.delete(accountId);
  }
  // Calls that find no snapshot together share one read.
  const fresh = await snapshots.getOrLoad(accountId, async () => ({
    balance: await spendableBalance(deps, accountId),
    spent: 0,
  }));
  assertCovers(fresh.balance, estimate);
};

const writers = new WeakMap<Deps['db'], GroupCommit<UsageInput>>();
const active = new Set<GroupCommit<UsageInput>>();
/** How long metering gathers model calls before writing them. */
const METERING_WINDOW_MS = 100;

/** Debits a batch: one ledger transaction per account. */
const writeUsages = (deps: Deps) => async (usages: UsageInput[]) => {
  const byAccount = new Map<string, UsageInput[]>();
  for (const usage of usages) {
    const batch = byAccount.get(usage.accountId);
    if (batch) batch.push(usage);
    else byAccount.set(usage.accountId, [usage]);
  }
  for (const batch of byAccount.values()) await debitUsages(deps, batch);
};

/**
 * Debits a model call off the caller's path: the calls of 100 ms share one ledger transaction per
 * account (group commit), exactly once by idempotency key. A failure is logged; flushMetering()
 * waits for the writes.
 */
export const meter = (deps: Deps, usage: UsageInput): void => {
  const snapshot = snapshots.get(usage.accountId);
  if (snapshot) snapshot.spent += usage.credits;
  let writer = writers.get(deps.db);
  if (!writer) {
    writer = new GroupCommit(writeUsages(deps), { delayMs: METERING_WINDOW_MS });
    writers.set(deps.db, writer);
    active.add(writer);
  }
  writer.add(usage).catch((error) => deps.log.error({ err: error, usage }, 'metering a model call failed'));
};

/** Waits for the metering of every call made so far (tests, shutdown). */
export const flushMetering = async (): Promise<void> => {
  await Promise.allSettled([...active].map((writer) => writer.flush()));
};
