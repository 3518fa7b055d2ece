/**
 * The credit ledger: other features check credits before a model call and meter it
 * after. Every movement is an append-only entry; the balance is their sum.
 */
import { eq, sql } from 'drizzle-orm';
import { bulkInsert } from '../../db/bulk-insert';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  addGrant,
  type GrantKind,
  lockAccount,
  roundCredits,
  spendCredits,
  spendMany,
  sumEntries,
} from './ledger-repo';
import { creditGrants, usageLogs } from './schema';

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
}

/**
 * Meters model calls of one account in one transaction: a usage log row and a ledger debit each.
 * Idempotent by (accountId, idempotencyKey). The calls already ran, so a debit takes what the
 * balance holds and never drives it below zero; the log keeps the full cost.
 */
export async function debitUsages(deps: Deps, usages: UsageInput[]): Promise<void> {
  const accountId = usages[0]?.accountId;
  if (!accountId) return;
  if (usages.some((usage) => usage.accountId !== accountId)) throw new Error('debitUsages takes one account');
  await deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
    const results = await spendMany(tx, {
      accountId,
      strict: false,
      items: usages.map((usage) => ({
        amount: Math.max(0, usage.credits),
        idempotencyKey: `usage:${usage.idempotencyKey}`,
        description: `${usage.source} · ${usage.model}`,
      })),
    });
    const logs = usages.flatMap((usage, index) => {
      const result = results[index];
      return result && !result.duplicate ? [{ usage, charged: result.charged }] : [];
    });
    await bulkInsert(
      tx,
      usageLogs,
      {
        id: ['text', () => newId('usageLog')],
        account_id: ['text', () => accountId],
        subaccount_id: ['text', ({ usage }) => usage.subaccountId],
        model: ['text', ({ usage }) => usage.model || 'unknown'],
        input_tokens: ['int', ({ usage }) => Math.max(0, Math.round(usage.inputTokens))],
        output_tokens: ['int', ({ usage }) => Math.max(0, Math.round(usage.outputTokens))],
        credits: ['numeric', ({ usage }) => roundCredits(Math.max(0, usage.credits))],
        charged: ['numeric', ({ charged }) => charged],
        source: ['text', ({ usage }) => usage.source],
        idempotency_key: ['text', ({ usage }) => usage.idempotencyKey],
      },
      logs,
    );
  });
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
