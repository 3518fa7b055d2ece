/**
 * Mentoring + Lifetime (secret page): one payment, then its credits every month for life. Month 0
 * is granted with the purchase; each month's grant lasts until the next one, and queues the next
 * month as a scheduled job, keyed so a month is granted once however often a job runs.
 */
import type { TCatalogTier } from '@switchboard/core';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { defineJob, enqueueJob } from '../../platform/jobs';
import { addGrant, lockAccount } from './ledger-repo';
import { reapplyReversals } from './reversals';

export const LIFETIME_REFILL_JOB = 'billing:lifetime-refill';
export const isLifetimePlan = (tier: Pick<TCatalogTier, 'plan_code'>) => tier.plan_code === 'mentoring_lifetime';

export interface LifetimeMonth {
  accountId: string;
  /** The checkout that paid for it. */
  purchaseId: string;
  purchasedAt: string;
  credits: number;
  description: string;
  /** 0 at purchase. */
  month: number;
}

const addMonths = (from: Date, months: number) => {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
};

/** Grants one month of a lifetime purchase and queues the next (in the caller's transaction). */
export const grantLifetimeMonth = async (deps: Deps, tx: Tx, input: LifetimeMonth) => {
  const purchasedAt = new Date(input.purchasedAt);
  const end = addMonths(purchasedAt, input.month + 1);
  const granted = await addGrant(tx, {
    accountId: input.accountId,
    kind: 'bonus',
    amount: input.credits,
    sourceKey: `lifetime:${input.purchaseId}:${input.month}`,
    startsAt: addMonths(purchasedAt, input.month),
    expiresAt: end,
    description: `${input.description} (month ${input.month + 1})`,
  });
  // A refunded or disputed purchase: its share of this month is taken back at once.
  if (granted) await reapplyReversals(deps, tx, input.accountId, { invoiceId: null, checkoutId: input.purchaseId });
  const next: LifetimeMonth = { ...input, month: input.month + 1 };
  await enqueueJob(
    deps,
    {
      type: LIFETIME_REFILL_JOB,
      payload: next,
      accountId: input.accountId,
      runAt: end,
      idempotencyKey: `lifetime:${input.purchaseId}:${next.month}`,
    },
    tx,
  );
  return granted;
};

export const refillLifetime = (deps: Deps, month: LifetimeMonth) =>
  deps.db.transaction(async (tx) => {
    await lockAccount(tx, month.accountId, deps.env.FREE_PLAN_CREDITS);
    return grantLifetimeMonth(deps, tx, month);
  });

const ZLifetimeMonth = z.object({
  accountId: z.string(),
  purchaseId: z.string(),
  purchasedAt: z.string(),
  credits: z.number(),
  description: z.string(),
  month: z.number().int(),
}) satisfies z.ZodType<LifetimeMonth>;

/** Grants a lifetime plan's month when it comes. */
export const lifetimeRefillJob = defineJob({
  type: LIFETIME_REFILL_JOB,
  queue: 'maintenance',
  schema: ZLifetimeMonth,
  handler: (deps, job) => refillLifetime(deps, job.payload),
});
