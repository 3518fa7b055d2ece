import { findTier } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { addPlanPeriodGrant, lockAccount } from './ledger-repo';
import { billingAccounts } from './schema';

/**
 * Puts a seeded account on a plan without a payment provider (a complimentary plan, as an operator
 * would grant one): the plan's limits apply and its monthly credits are granted once.
 */
export const seedPlan = async (tx: Tx, accountId: string, priceId: string, freeCredits = 100) => {
  const tier = findTier(priceId);
  if (!tier) throw new Error(`Unknown catalog price ${priceId}`);
  await lockAccount(tx, accountId, freeCredits);
  await tx
    .update(billingAccounts)
    .set({
      status: 'active',
      priceId: tier.price_id,
      planCode: tier.plan_code,
      tierCode: tier.tier_code,
      creditLimit: tier.credit_limit,
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.accountId, accountId));
  await addPlanPeriodGrant(tx, {
    accountId,
    amount: tier.credit_limit,
    sourceKey: 'seed:plan',
    startsAt: new Date(),
    description: `${tier.display_name} (complimentary)`,
  });
};
