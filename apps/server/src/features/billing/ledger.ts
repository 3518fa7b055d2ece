/**
 * The credit ledger: other features check credits before a model call and meter it
 * after. Every movement is an append-only entry; the balance is their sum.
 */
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { addGrant, type GrantKind, lockAccount, roundCredits, spendCredits, sumEntries } from './ledger-repo';
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

/**
 * Throws BILLING_INSUFFICIENT_CREDITS (402) when the balance cannot cover the estimate. A read
 * without the account lock (it runs before every model call); the debit itself is exact.
 */
export async function ensureCanSpend(deps: Deps, accountId: string, estimatedCredits: number): Promise<void> {
  const balance = (await spendable(deps, accountId)) ?? (await getBalance(deps, accountId));
  if (balance <= 0 || balance < roundCredits(Math.max(0, estimatedCredits))) throw insufficient();
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
 * Meters one model call in one transaction: the usage log row and the ledger debit. Idempotent by
 * (accountId, idempotencyKey). The call already ran, so the debit takes what the balance holds and
 * never drives it below zero; the log keeps the full cost.
 */
export async function debitUsage(deps: Deps, usage: UsageInput): Promise<void> {
  const credits = roundCredits(Math.max(0, usage.credits));
  await deps.db.transaction(async (tx) => {
    await lockAccount(tx, usage.accountId, deps.env.FREE_PLAN_CREDITS);
    const result = await spendCredits(tx, {
      accountId: usage.accountId,
      amount: credits,
      idempotencyKey: `usage:${usage.idempotencyKey}`,
      strict: false,
      description: `${usage.source} · ${usage.model}`,
    });
    if (result.duplicate) return;
    await tx.insert(usageLogs).values({
      id: newId('usageLog'),
      accountId: usage.accountId,
      subaccountId: usage.subaccountId,
      model: usage.model || 'unknown',
      inputTokens: Math.max(0, Math.round(usage.inputTokens)),
      outputTokens: Math.max(0, Math.round(usage.outputTokens)),
      credits,
      charged: result.charged,
      source: usage.source,
      idempotencyKey: usage.idempotencyKey,
    });
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
