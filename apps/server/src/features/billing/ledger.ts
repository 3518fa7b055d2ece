/**
 * The credit ledger: other features check credits before a model call and meter it
 * after. Every movement is an append-only entry; the balance is their sum.
 */

import { eq, sql } from 'drizzle-orm';
import { arrayParam, insertRows } from '../../db/bulk-insert';
import { rowsOf } from '../../db/client';
import { type Deps, embeddedDatabase } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { subaccountUsageWrite } from './allowances';
import {
  addGrant,
  type GrantKind,
  lockAccount,
  planSpend,
  roundCredits,
  runTogether,
  spendCredits,
  sumEntries,
} from './ledger-repo';
import { scheduleBalanceCheck } from './low-balance';
import { creditGrants, creditHolds, usageLogs } from './schema';

const insufficient = () =>
  new AppError('BILLING_INSUFFICIENT_CREDITS', 'Insufficient credits. Please add more to continue.');

/** The current balance; the first call for an account creates its free plan grant. */
export async function getBalance(deps: Deps, accountId: string): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
    return sumEntries(tx, accountId);
  });
}

/** Spendable credits in one read (grants not past their end); null before the account's first movement. */
const spendable = async (deps: Deps, accountId: string): Promise<number | null> => {
  const [row] = await deps.db
    .select({
      grants: sql<number>`count(*)::int`,
      available: sql<string>`coalesce(sum(${creditGrants.remaining}) filter (where ${creditGrants.expiresAt} is null or ${creditGrants.expiresAt} > now()), 0)`,
    })
    .from(creditGrants)
    .where(eq(creditGrants.accountId, accountId));
  return row && Number(row.grants) > 0 ? roundCredits(Number(row.available)) : null;
};

/** The credits that can be spent now, in one read without the account lock. */
export const spendableBalance = async (deps: Deps, accountId: string): Promise<number> =>
  (await spendable(deps, accountId)) ?? (await getBalance(deps, accountId));

/** Throws BILLING_INSUFFICIENT_CREDITS (402) when `balance` cannot cover the estimate. */
export const assertCovers = (balance: number, estimatedCredits: number): void => {
  if (balance <= 0 || balance < roundCredits(Math.max(0, estimatedCredits))) throw insufficient();
};

/**
 * Throws BILLING_INSUFFICIENT_CREDITS (402) when the balance cannot cover the estimate. A read
 * without the account lock (it runs before a model call); the debit itself is exact.
 */
export async function ensureCanSpend(deps: Deps, accountId: string, estimatedCredits: number): Promise<void> {
  assertCovers(await spendableBalance(deps, accountId), estimatedCredits);
}

export interface UsageInput {
  accountId: string;
  subaccountId: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  credits: number;
  idempotencyKey: string;
  source: string;
  /** The hold the call reserved before it started; removed in the same transaction as the debit. */
  holdId?: string | null;
  /** Only removes the hold (the call failed and costs nothing). */
  releaseOnly?: boolean;
  agentId?: string | null;
  channel?: string | null;
  billingBasis?: 'platform' | 'own_key';
}

/** A model call's reservation of its estimated cost; `accepted` is set by reserveHolds. */
export interface HoldRequest {
  id: string;
  accountId: string;
  subaccountId: string | null;
  amount: number;
  /** Seconds the hold counts if the call never settles it (a crashed process). */
  ttlSeconds: number;
  accepted?: boolean;
  refusal?: AppError;
}

/**
 * Reserves the estimated cost of model calls of one account, in order, under the account's holds
 * lock, in one round trip (the reserve_credit_holds function, migration 0019): a call is
 * admitted when spendable credits (grants not past their end) less the holds of calls in flight
 * cover its estimate. Every ledger write but metering takes that lock too (lockAccount).
 * Concurrent calls therefore never spend more than the balance (their real cost is at most their estimate; metering never drives a grant below zero).
 * Sets `accepted` (or `refusal`) on each request.
 */
export async function reserveHolds(deps: Deps, requests: HoldRequest[]): Promise<void> {
  const accountId = requests[0]?.accountId;
  if (!accountId) return;
  if (requests.some((request) => request.accountId !== accountId)) throw new Error('reserveHolds takes one account');
  const now = Date.now();
  const reserve = async () => {
    const result = await deps.db.execute(sql`SELECT reserve_credit_holds(
      ${accountId},
      ${arrayParam(requests, (request) => request.id)}::text[],
      ${arrayParam(requests, (request) => request.subaccountId)}::text[],
      ${arrayParam(requests, (request) => roundCredits(Math.max(0, request.amount)))}::numeric[],
      ${arrayParam(requests, (request) => new Date(now + request.ttlSeconds * 1000).toISOString())}::timestamptz[]
    ) AS accepted`);
    return rowsOf<{ accepted: string[] | null }>(result)[0]?.accepted ?? null;
  };
  let accepted = await reserve();
  if (accepted === null) {
    // The account's first call: its billing row is made (with the free grant), then the holds.
    await deps.db.transaction((tx) => lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS));
    accepted = (await reserve()) ?? [];
  }
  const admitted = new Set(accepted);
  for (const request of requests) {
    request.accepted = admitted.has(request.id);
    if (!request.accepted) request.refusal = insufficient();
  }
}

/**
 * Finished calls' holds count their metered cost from now on instead of their estimate (one
 * statement for the batch): the debit that deletes them follows within metering's window, and
 * meanwhile the balance and the client's allowance see what the calls really cost. A hold already
 * deleted by its debit is left as it is.
 */
export async function settleHolds(deps: Deps, holds: { id: string; cost: number }[]): Promise<void> {
  if (holds.length === 0) return;
  await deps.db.execute(sql`UPDATE ${creditHolds} SET amount = v.cost
    FROM unnest(${arrayParam(holds, (hold) => hold.id)}::text[], ${arrayParam(holds, (hold) => roundCredits(Math.max(0, hold.cost)))}::numeric[]) AS v(id, cost)
    WHERE ${creditHolds.id} = v.id`);
}

/** The ledger entry's description for a batch of metered calls. */
const usageDescription = (calls: UsageInput[]): string => {
  const [first] = calls;
  if (calls.length === 1 && first) return `${first.source} · ${first.model}`;
  const models = new Set(calls.map((usage) => usage.model));
  const [model] = models;
  return `${calls.length} model calls${models.size === 1 && model ? ` · ${model}` : ''}`;
};

/**
 * Meters model calls of one account in one transaction: a usage log row per call, and one ledger
 * debit for them all (its key is the first new call's). Idempotent by (accountId, idempotencyKey)
 * on the usage log: the log rows are inserted first, a key already there is skipped by its unique
 * index (no lookup the planner could turn into a read of the account's rows). The calls already
 * ran, so a debit takes what the balance holds and never drives it below zero; each call's log
 * keeps its full cost and what was charged for it, in order.
 */
export async function debitUsages(deps: Deps, usages: UsageInput[]): Promise<void> {
  const accountId = usages[0]?.accountId;
  if (!accountId) return;
  if (usages.some((usage) => usage.accountId !== accountId)) throw new Error('debitUsages takes one account');
  // The embedded database keeps holds in the process's memory (credits.ts), never in credit_holds.
  const holds = embeddedDatabase(deps) ? [] : usages.flatMap((usage) => (usage.holdId ? [usage.holdId] : []));
  // Each key once (a batch may carry a retried call twice).
  const byKey = new Map<string, UsageInput & { logId: string }>();
  for (const usage of usages) {
    if (!usage.releaseOnly && !byKey.has(usage.idempotencyKey)) {
      byKey.set(usage.idempotencyKey, { ...usage, logId: newId('usageLog') });
    }
  }
  const calls = [...byKey.values()];
  let watched = false;
  await deps.db.transaction(async (tx) => {
    const row = await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS, new Date(), { holds: false });
    // Low-balance alerts and auto-recharge are looked at after the debit, only when the account set them.
    watched = calls.length > 0 && (row.lowBalanceThresholds.length > 0 || row.autoRechargeEnabled);
    // The holds of these calls (and any left behind past their end) stop counting with the debit.
    const released = holds.length
      ? [
          sql`DELETE FROM ${creditHolds} WHERE ${creditHolds.accountId} = ${accountId}
            AND (${creditHolds.id} = ANY(${arrayParam(holds, (id) => id)}::text[]) OR ${creditHolds.expiresAt} <= now())`,
        ]
      : [];
    const logged = calls.length
      ? new Set(
          rowsOf<{ id: string }>(
            await tx.execute(
              sql`${insertRows(
                usageLogs,
                {
                  id: ['text', (usage) => usage.logId],
                  account_id: ['text', () => accountId],
                  subaccount_id: ['text', (usage) => usage.subaccountId],
                  model: ['text', (usage) => usage.model || 'unknown'],
                  input_tokens: ['int', (usage) => Math.max(0, Math.round(usage.inputTokens))],
                  output_tokens: ['int', (usage) => Math.max(0, Math.round(usage.outputTokens))],
                  credits: ['numeric', (usage) => roundCredits(Math.max(0, usage.credits))],
                  charged: ['numeric', (usage) => roundCredits(Math.max(0, usage.credits))],
                  source: ['text', (usage) => usage.source],
                  agent_id: ['text', (usage) => usage.agentId ?? null],
                  channel: ['text', (usage) => usage.channel ?? null],
                  billing_basis: ['text', (usage) => usage.billingBasis ?? 'platform'],
                  idempotency_key: ['text', (usage) => usage.idempotencyKey],
                },
                calls,
              )} ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id`,
            ),
          ).map((inserted) => inserted.id),
        )
      : new Set<string>();
    const fresh = calls.filter((usage) => logged.has(usage.logId));
    const first = fresh[0];
    if (!first) {
      await runTogether(tx, released);
      return;
    }
    const plan = await planSpend(tx, {
      accountId,
      strict: false,
      // New: its usage log row was just inserted, and the ledger key is only ever used with it.
      keysNew: true,
      items: [
        {
          amount: roundCredits(fresh.reduce((sum, usage) => sum + Math.max(0, usage.credits), 0)),
          idempotencyKey: `usage:${first.idempotencyKey}`,
          description: usageDescription(fresh),
        },
      ],
    });
    // What the grants gave, shared out over the calls in order; the logs of calls the balance
    // did not fully cover are corrected.
    let left = plan.results[0]?.charged ?? 0;
    const shortfalls: { id: string; charged: number }[] = [];
    for (const usage of fresh) {
      const credits = roundCredits(Math.max(0, usage.credits));
      const charged = Math.min(credits, left);
      left = roundCredits(left - charged);
      if (charged < credits) shortfalls.push({ id: usage.logId, charged });
    }
    const counted = subaccountUsageWrite(
      fresh.map((usage) => ({ subaccountId: usage.subaccountId, credits: usage.credits })),
    );
    // The holds, the debit, the sub-accounts' use and the logs' corrections: one statement.
    await runTogether(tx, [
      ...released,
      ...plan.writes,
      ...(counted ? [counted] : []),
      ...(shortfalls.length
        ? [
            sql`UPDATE ${usageLogs} SET charged = v.charged
              FROM unnest(${arrayParam(shortfalls, (log) => log.id)}::text[], ${arrayParam(shortfalls, (log) => log.charged)}::numeric[]) AS v(id, charged)
              WHERE ${usageLogs.id} = v.id`,
          ]
        : []),
    ]);
  });
  if (watched) scheduleBalanceCheck(deps, accountId);
}

/**
 * Spends credits all-or-nothing (BILLING_INSUFFICIENT_CREDITS when the balance cannot cover them).
 * Answers false when the key was already used, so a replay changes nothing.
 */
export async function spendStrict(
  deps: Deps,
  input: { accountId: string; credits: number; idempotencyKey: string; description?: string },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, input.accountId, deps.env.FREE_PLAN_CREDITS);
    const result = await spendCredits(tx, {
      accountId: input.accountId,
      amount: input.credits,
      idempotencyKey: `spend:${input.idempotencyKey}`,
      strict: true,
      description: input.description,
    });
    return !result.duplicate;
  });
}

/** Adds credits once per (account, sourceKey); answers false for a replay. */
export async function grantCredits(
  deps: Deps,
  input: {
    accountId: string;
    kind: GrantKind;
    credits: number;
    sourceKey: string;
    expiresAt?: Date | null;
    description?: string;
  },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, input.accountId, deps.env.FREE_PLAN_CREDITS);
    return addGrant(tx, { ...input, amount: input.credits });
  });
}
