import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Deps, embeddedDatabase as embedded } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { GroupCommit } from '../../platform/group-commit';
import { newId } from '../../platform/ids';
import { TtlCache } from '../../platform/ttl-cache';
import { assertWithinAllowance } from '../billing/allowances';
import {
  debitUsages,
  type HoldRequest,
  reserveHolds,
  settleHolds,
  spendableBalance,
  type UsageInput,
} from '../billing/ledger';

/**
 * The gateway's side of the credit ledger. Before a model call, reserveCredits holds the call's
 * estimated cost (a row in credit_holds, admitted only when the balance less the holds of calls
 * in flight covers it); after the call, meter() debits the real cost and removes the hold in the
 * same transaction, and releaseCredits() removes it when the call failed. Reservations asked for
 * at the same moment share one transaction per account (group commit); metering is gathered (up
 * to five seconds, or a batch) off the caller's path, idempotent by key and awaited by
 * flushMetering().
 */

/**
 * The embedded database (PGlite, no DATABASE_URL) belongs to one process (its data folder is
 * locked), so there the holds are kept in that process's memory: the same rule, no statement per
 * turn. A hold is removed only once its call's debit is committed, so a fresh read of the balance
 * plus the holds never counts a cost twice or not at all; every commit drops the balance read
 * (versions below), and a read that raced a commit is read again.
 */
const snapshots = new TtlCache<number>(2000);
const versions = new Map<string, number>();
const heldBy = new Map<string, number>();
const localHolds = new Map<string, { accountId: string; subaccountId: string | null; amount: number }>();
const heldBySubaccount = new Map<string, number>();

const insufficient = () =>
  new AppError('BILLING_INSUFFICIENT_CREDITS', 'Insufficient credits. Please add more to continue.');

const balanceNow = async (deps: Deps, accountId: string): Promise<number> => {
  for (;;) {
    const version = versions.get(accountId) ?? 0;
    const balance = await snapshots.getOrLoad(
      accountId,
      () => spendableBalance(deps, accountId),
      () => (versions.get(accountId) ?? 0) === version,
    );
    if ((versions.get(accountId) ?? 0) === version) return balance;
  }
};

const reserveLocal = async (
  deps: Deps,
  accountId: string,
  subaccountId: string | null,
  amount: number,
): Promise<string> => {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const balance = await balanceNow(deps, accountId);
    // From here to the end of the block nothing awaits: the check and the hold are one step.
    const available = balance - (heldBy.get(accountId) ?? 0);
    if (available > 0 && available >= amount) {
      const id = newId('creditHold');
      heldBy.set(accountId, (heldBy.get(accountId) ?? 0) + amount);
      localHolds.set(id, { accountId, subaccountId, amount });
      if (subaccountId) heldBySubaccount.set(subaccountId, (heldBySubaccount.get(subaccountId) ?? 0) + amount);
      return id;
    }
    // Credits may have been granted since the balance was read: read it once more.
    snapshots.delete(accountId);
  }
  throw insufficient();
};

const dropLocalHold = (holdId: string | null | undefined) => {
  const hold = holdId ? localHolds.get(holdId) : undefined;
  if (!hold || !holdId) return;
  localHolds.delete(holdId);
  const left = (heldBy.get(hold.accountId) ?? 0) - hold.amount;
  if (left > 1e-9) heldBy.set(hold.accountId, left);
  else heldBy.delete(hold.accountId);
  if (hold.subaccountId) {
    const rest = (heldBySubaccount.get(hold.subaccountId) ?? 0) - hold.amount;
    if (rest > 1e-9) heldBySubaccount.set(hold.subaccountId, rest);
    else heldBySubaccount.delete(hold.subaccountId);
  }
};

/**
 * A finished call's hold counts its metered cost instead of its estimate at once, before metering
 * writes the debit (up to its window later): a call that cost less than it held no longer makes
 * the next call wait for the debit, nor a client's allowance refuse early.
 */
const finishLocalHold = (holdId: string, cost: number) => {
  const hold = localHolds.get(holdId);
  if (!hold) return;
  const freed = hold.amount - Math.max(0, cost);
  hold.amount -= freed;
  heldBy.set(hold.accountId, (heldBy.get(hold.accountId) ?? 0) - freed);
  if (hold.subaccountId) {
    heldBySubaccount.set(hold.subaccountId, (heldBySubaccount.get(hold.subaccountId) ?? 0) - freed);
  }
};

/** After a debit committed: the balance read is stale (its version moves on), then the hold goes. */
const settleLocal = (usage: UsageInput) => {
  versions.set(usage.accountId, (versions.get(usage.accountId) ?? 0) + 1);
  snapshots.delete(usage.accountId);
  dropLocalHold(usage.holdId);
};

/** How long a hold counts if nothing settles it (a process that died mid-call), beyond the model timeout. */
const HOLD_MARGIN_SECONDS = 300;

const reservers = new WeakMap<Deps['db'], GroupCommit<HoldRequest>>();

/** Reserves a batch: one transaction per account. */
const writeHolds = (deps: Deps) => async (requests: HoldRequest[]) => {
  const byAccount = new Map<string, HoldRequest[]>();
  for (const request of requests) {
    if (request.accepted !== undefined) continue; // already decided (a retried batch)
    const batch = byAccount.get(request.accountId);
    if (batch) batch.push(request);
    else byAccount.set(request.accountId, [request]);
  }
  for (const batch of byAccount.values()) await reserveHolds(deps, batch);
};

/**
 * Holds `estimate` credits for a call about to start; throws BILLING_INSUFFICIENT_CREDITS (402)
 * when the balance, less what calls in flight hold, cannot cover it. Answers the hold id to settle.
 */
export const reserveCredits = async (
  deps: Deps,
  input: { accountId: string; subaccountId?: string | null; estimate: number },
): Promise<string> => {
  const estimate = Math.max(0, input.estimate);
  const subaccountId = input.subaccountId ?? null;
  // The account's calls that just finished count their cost, not their estimate.
  await settling.get(input.accountId);
  // The client's monthly allowance first (a cached lookup when it has none).
  await assertWithinAllowance(
    deps,
    subaccountId,
    estimate,
    subaccountId ? (heldBySubaccount.get(subaccountId) ?? 0) : 0,
  );
  if (embedded(deps)) return reserveLocal(deps, input.accountId, subaccountId, estimate);
  let writer = reservers.get(deps.db);
  if (!writer) {
    writer = new GroupCommit(writeHolds(deps), { concurrency: 2 });
    reservers.set(deps.db, writer);
  }
  const request: HoldRequest = {
    id: newId('creditHold'),
    accountId: input.accountId,
    subaccountId: input.subaccountId ?? null,
    amount: Math.max(0, input.estimate),
    ttlSeconds: Math.ceil(deps.env.LLM_TIMEOUT_MS / 1000) + HOLD_MARGIN_SECONDS,
  };
  await writer.add(request);
  if (!request.accepted) throw request.refusal;
  return request.id;
};

/**
 * On PostgreSQL the holds are rows: finished calls' holds are set to their cost in one statement per
 * turn (settleHolds). A reservation of the account waits for the statement of its calls already
 * finished, so in this process the next call always sees them at their cost; other processes see
 * it once the statement has run.
 */
const holdSettlers = new WeakMap<Deps['db'], GroupCommit<{ id: string; cost: number }>>();
const settling = new Map<string, Promise<void>>();

const settleHoldSoon = (deps: Deps, accountId: string, id: string, cost: number) => {
  let settler = holdSettlers.get(deps.db);
  if (!settler) {
    settler = new GroupCommit((holds) => settleHolds(deps, holds), { concurrency: 2 });
    holdSettlers.set(deps.db, settler);
  }
  const done = settler
    .add({ id, cost })
    .catch((error) => deps.log.warn({ err: error, holdId: id }, 'settling a finished call hold failed'));
  const waited = Promise.all([settling.get(accountId), done]).then(() => undefined);
  settling.set(accountId, waited);
  void waited.finally(() => {
    if (settling.get(accountId) === waited) settling.delete(accountId);
  });
};

const writers = new WeakMap<Deps['db'], GroupCommit<UsageInput>>();
const active = new Set<GroupCommit<UsageInput>>();
/**
 * How long metering gathers model calls at most before writing them, and how many calls written
 * together start a write at once. A busy server fills a batch within a second and writes as it
 * did with a one-second window; a quiet one (a single conversation: a call every 60 ms) pays the
 * transaction's fixed work (the account's lock, its grants and keys) once for five seconds of calls
 * instead of once a second. A process killed outright loses the calls it had not written yet, as
 * before; when calls are few, that is now up to five seconds of them.
 */
const METERING_WINDOW_MS = 5000;
export const METERING_BATCH = { embedded: 50, pooled: 500 };

/**
 * On the embedded database every statement runs on the main thread, so the calls gathered are
 * debited in transactions of up to EMBEDDED_DEBIT_CALLS (a batch) with a turn of the event loop
 * between them: a reply that waits for its message write meanwhile waits for one of them, not for the
 * whole second's (at a chat's pace, half of it). Smaller ones would cost more work per call: each
 * transaction also locks the account and reads its grants and keys.
 */
const EMBEDDED_DEBIT_CALLS = METERING_BATCH.embedded;

/** Debits a batch: one ledger transaction per account (per EMBEDDED_DEBIT_CALLS on PGlite). */
const writeUsages = (deps: Deps) => async (usages: UsageInput[]) => {
  const byAccount = new Map<string, UsageInput[]>();
  for (const usage of usages) {
    const batch = byAccount.get(usage.accountId);
    if (batch) batch.push(usage);
    else byAccount.set(usage.accountId, [usage]);
  }
  const local = embedded(deps);
  let first = true;
  for (const batch of byAccount.values()) {
    // Parts of equal size: 60 calls are two transactions of 30.
    const size = local ? Math.ceil(batch.length / Math.ceil(batch.length / EMBEDDED_DEBIT_CALLS)) : batch.length;
    for (let start = 0; start < batch.length; start += size) {
      if (local && !first) await nextTurn();
      first = false;
      await debitUsages(deps, batch.slice(start, start + size));
    }
  }
};

const meteringWriter = (deps: Deps) => {
  let writer = writers.get(deps.db);
  if (!writer) {
    writer = new GroupCommit(writeUsages(deps), {
      delayMs: METERING_WINDOW_MS,
      maxBatch: embedded(deps) ? METERING_BATCH.embedded : METERING_BATCH.pooled,
    });
    writers.set(deps.db, writer);
    active.add(writer);
  }
  return writer;
};

/**
 * Debits a model call off the caller's path and removes its hold: the calls gathered together share
 * one ledger transaction per account (group commit), exactly once by idempotency key. A failure is
 * logged (the hold then lapses at its end); flushMetering() waits for the writes.
 */
export const meter = (deps: Deps, usage: UsageInput): void => {
  const local = embedded(deps);
  if (usage.holdId && !usage.releaseOnly) {
    if (local) finishLocalHold(usage.holdId, usage.credits);
    else settleHoldSoon(deps, usage.accountId, usage.holdId, usage.credits);
  }
  meteringWriter(deps)
    .add(usage)
    .then(
      () => (local ? settleLocal(usage) : undefined),
      (error) => {
        if (local) settleLocal(usage);
        deps.log.error({ err: error, usage }, 'metering a model call failed');
      },
    );
};

/** Removes the hold of a call that failed (it costs nothing), off the caller's path. */
export const releaseCredits = (deps: Deps, accountId: string, holdId: string): void => {
  if (embedded(deps)) {
    dropLocalHold(holdId);
    return;
  }
  meter(deps, {
    accountId,
    subaccountId: null,
    model: '',
    inputTokens: 0,
    outputTokens: 0,
    credits: 0,
    idempotencyKey: `release:${holdId}`,
    source: 'release',
    holdId,
    releaseOnly: true,
  });
};

/** Waits for the metering of every call made so far (tests, shutdown). */
export const flushMetering = async (): Promise<void> => {
  await Promise.allSettled([...active].map((writer) => writer.flush()));
};
