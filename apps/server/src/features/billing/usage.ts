/** The usage response of spec billing-accounts 3 and promo-code redemption. */
import type { TUsageResponse } from '@switchboard/core';
import { and, desc, eq } from 'drizzle-orm';
import { type AccountView, visibleTo, wholeAccount } from '../../platform/account-scope';
import type { Deps } from '../../platform/deps';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { type BillingRow, billingRow, currentPlan } from './account';
import { addGrant, lockAccount, roundCredits, sumEntries } from './ledger-repo';
import { creditEntries, creditGrants, usageLogs } from './schema';

/** Live grants: not past their end and not replaced or expired (no expiry entry). */
const grantSums = async (deps: Deps, accountId: string) => {
  const now = Date.now();
  const grants = await deps.db.select().from(creditGrants).where(eq(creditGrants.accountId, accountId));
  const expired = await deps.db
    .select({ grantId: creditEntries.grantId })
    .from(creditEntries)
    .where(and(eq(creditEntries.accountId, accountId), eq(creditEntries.kind, 'expiry')));
  const gone = new Set(expired.map((row) => row.grantId));
  const sums = { planGranted: 0, planRemaining: 0, bonusGranted: 0, bonusRemaining: 0, bonusTotal: 0 };
  for (const grant of grants) {
    const plan = grant.kind === 'plan';
    if (!plan) sums.bonusTotal += grant.amount;
    const live = !gone.has(grant.id) && (!grant.expiresAt || grant.expiresAt.getTime() > now);
    if (!live) continue;
    if (plan) {
      sums.planGranted += grant.amount;
      sums.planRemaining += grant.remaining;
    } else {
      sums.bonusGranted += grant.amount;
      sums.bonusRemaining += grant.remaining;
    }
  }
  return sums;
};

/**
 * The usage screen's data as the caller may see it: the account's manager gets the balance, plan
 * and every call; anyone else the plan's capabilities and the calls of their own sub-accounts.
 */
export const getUsage = async (deps: Deps, view: AccountView): Promise<TUsageResponse> => {
  const { accountId } = view;
  const row = await billingRow(deps, accountId);
  const plan = currentPlan(deps, row);
  const logs = await deps.db
    .select()
    .from(usageLogs)
    .where(and(eq(usageLogs.accountId, accountId), visibleTo(view, usageLogs.subaccountId)))
    .orderBy(desc(usageLogs.createdAt))
    .limit(500);
  return {
    hasKey: true,
    error: null,
    balance: view.manager ? await accountBalance(deps, row, plan.creditLimit) : null,
    capabilities: plan.capabilities,
    usageLogs: logs.map((log) => ({
      id: log.id,
      timestamp: log.createdAt.toISOString(),
      model: log.model || 'unknown',
      cost: log.credits,
      usage_total: log.inputTokens + log.outputTokens,
      source: log.source,
    })),
  };
};

/** The account's credits and plan (the manager's part of the usage response). */
const accountBalance = async (
  deps: Deps,
  row: BillingRow,
  configuredLimit: number,
): Promise<NonNullable<TUsageResponse['balance']>> => {
  const { accountId } = row;
  const balance = await sumEntries(deps.db, accountId);
  const sums = await grantSums(deps, accountId);
  const totalLimit = roundCredits(sums.planGranted + sums.bonusGranted);
  return {
    planCode: row.planCode,
    tierCode: row.tierCode,
    configuredLimit,
    effectiveLimit: totalLimit,
    planCreditLimit: roundCredits(sums.planGranted),
    totalCreditLimit: totalLimit,
    usageUsed: roundCredits(Math.max(0, totalLimit - balance)),
    creditsRemaining: balance,
    planCreditsRemaining: roundCredits(sums.planRemaining),
    bonusCreditsGranted: roundCredits(sums.bonusGranted),
    bonusCreditsTotal: roundCredits(sums.bonusTotal),
    bonusCreditsRemaining: roundCredits(sums.bonusRemaining),
    totalCreditsRemaining: balance,
    scheduledPriceId: row.scheduledPriceId,
    scheduledChangeDate: row.scheduledChangeDate?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
};

/** Promo codes that grant credits: BILLING_PROMO_CODES (`CODE:credits,...`), WELCOME100:100 outside production. */
export const promoCodes = (env: Env): Map<string, number> => {
  const text = env.BILLING_PROMO_CODES ?? (env.NODE_ENV === 'production' ? '' : 'WELCOME100:100');
  const map = new Map<string, number>();
  for (const pair of text.split(',')) {
    const [code, credits] = pair.split(':').map((part) => part.trim());
    const amount = Number(credits);
    if (code && Number.isFinite(amount) && amount > 0) map.set(code.toUpperCase(), amount);
  }
  return map;
};

/** Redeems a promo code once per account; a replay changes nothing and answers 409. */
export const redeemPromo = async (deps: Deps, accountId: string, rawCode: string) => {
  const code = rawCode.trim().toUpperCase();
  const amount = promoCodes(deps.env).get(code);
  if (!amount)
    throw new AppError('VALIDATION_ERROR', 'This promo code is not valid.', { field: 'code', reason: 'invalid_code' });
  const created = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS);
    return addGrant(tx, {
      accountId,
      kind: 'promo',
      amount,
      sourceKey: `promo:${code}`,
      description: `Promo code ${code}`,
    });
  });
  if (!created) {
    throw new AppError('CONFLICT', 'This promo code has already been redeemed.', {
      field: 'code',
      reason: 'already_redeemed',
    });
  }
  const usage = await getUsage(deps, wholeAccount(accountId));
  return { success: true, amount, balance: usage.balance };
};
