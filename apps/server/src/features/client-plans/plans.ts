/** The plans an agency sells to its clients: created, edited, archived when someone subscribes to them. */
import {
  CLIENT_PLAN_LIMITS,
  type TClientPlan,
  type TCreateClientPlanRequest,
  type TUpdateClientPlanRequest,
  ZCreateClientPlanRequest,
} from '@switchboard/core';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { assertFeature } from '../billing/limits';
import { clientPlans, clientSandboxCheckouts, clientSubscriptions } from './schema';

export type PlanRow = typeof clientPlans.$inferSelect;

/** Subscriptions that still hold a plan (not ended). */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete'];

export const planView = (row: PlanRow, subscribers = 0): TClientPlan => ({
  id: row.id,
  name: row.name,
  priceMinor: row.priceMinor,
  currency: row.currency,
  includedCredits: row.includedCredits,
  extraCreditPriceMinor: row.extraCreditPriceMinor === null ? null : Number(row.extraCreditPriceMinor),
  archived: row.archivedAt !== null,
  subscribers,
  createdAt: row.createdAt.toISOString(),
});

const subscriberCounts = async (db: Db | Tx, planIds: string[]): Promise<Map<string, number>> => {
  if (planIds.length === 0) return new Map();
  const rows = await db
    .select({ planId: clientSubscriptions.planId, n: count() })
    .from(clientSubscriptions)
    .where(and(inArray(clientSubscriptions.planId, planIds), inArray(clientSubscriptions.status, LIVE_STATUSES)))
    .groupBy(clientSubscriptions.planId);
  return new Map(rows.map((row) => [row.planId as string, Number(row.n)]));
};

/** The account's plans (archived ones too when asked), oldest first. */
export const listPlans = async (deps: Deps, accountId: string, options: { withArchived: boolean }) => {
  const rows = await deps.db
    .select()
    .from(clientPlans)
    .where(and(eq(clientPlans.accountId, accountId), options.withArchived ? undefined : isNull(clientPlans.archivedAt)))
    .orderBy(clientPlans.priceMinor, clientPlans.createdAt);
  const counts = await subscriberCounts(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => planView(row, counts.get(row.id) ?? 0));
};

/** One plan of the account; another account's plan is not found. */
export const findPlan = async (db: Db | Tx, accountId: string, planId: string): Promise<PlanRow> => {
  const [row] = await db
    .select()
    .from(clientPlans)
    .where(and(eq(clientPlans.id, planId), eq(clientPlans.accountId, accountId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Plan not found', { field: 'planId' });
  return row;
};

export const createPlan = async (deps: Deps, accountId: string, input: TCreateClientPlanRequest) => {
  await assertFeature(deps, accountId, 'whitelabel_subaccounts');
  const plan = ZCreateClientPlanRequest.parse(input);
  const [{ n } = { n: 0 }] = await deps.db
    .select({ n: count() })
    .from(clientPlans)
    .where(and(eq(clientPlans.accountId, accountId), isNull(clientPlans.archivedAt)));
  if (Number(n) >= CLIENT_PLAN_LIMITS.maxPlansPerAccount) {
    throw new AppError('CONFLICT', `An agency can offer at most ${CLIENT_PLAN_LIMITS.maxPlansPerAccount} plans.`);
  }
  const [row] = await deps.db
    .insert(clientPlans)
    .values({ id: newId('clientPlan'), accountId, ...plan })
    .returning();
  return planView(row as PlanRow);
};

/**
 * Changes a plan. A new price is a new Stripe price (made at the next checkout); subscribers keep
 * paying their old price until they choose a plan again, and get the new credits from their next invoice.
 */
export const updatePlan = async (deps: Deps, accountId: string, planId: string, input: TUpdateClientPlanRequest) => {
  const before = await findPlan(deps.db, accountId, planId);
  if (before.archivedAt) throw new AppError('CONFLICT', 'This plan is archived; create a new plan instead.');
  const priceChanged = input.priceMinor !== undefined && input.priceMinor !== before.priceMinor;
  const [row] = await deps.db
    .update(clientPlans)
    .set({ ...input, ...(priceChanged ? { stripePriceId: null } : {}) })
    .where(and(eq(clientPlans.id, planId), eq(clientPlans.accountId, accountId)))
    .returning();
  const counts = await subscriberCounts(deps.db, [planId]);
  return planView(row as PlanRow, counts.get(planId) ?? 0);
};

/**
 * Removes a plan nobody ever subscribed to; a plan with subscriptions (live or past) or invoices is
 * archived: no longer offered, kept for those who have it and for the history.
 */
export const deletePlan = async (deps: Deps, accountId: string, planId: string) =>
  deps.db.transaction(async (tx) => {
    const [plan] = await tx
      .select()
      .from(clientPlans)
      .where(and(eq(clientPlans.id, planId), eq(clientPlans.accountId, accountId)))
      .for('update');
    if (!plan) throw new AppError('NOT_FOUND', 'Plan not found', { field: 'planId' });
    const [used] = await tx
      .select({
        subscriptions: sql<number>`(select count(*) from ${clientSubscriptions} where ${clientSubscriptions.planId} = ${planId})`,
        checkouts: sql<number>`(select count(*) from ${clientSandboxCheckouts} where ${clientSandboxCheckouts.planId} = ${planId})`,
      })
      .from(clientPlans)
      .where(eq(clientPlans.id, planId));
    if (Number(used?.subscriptions ?? 0) + Number(used?.checkouts ?? 0) > 0) {
      await tx
        .update(clientPlans)
        .set({ archivedAt: plan.archivedAt ?? new Date() })
        .where(eq(clientPlans.id, planId));
      return { outcome: 'archived' as const };
    }
    await tx.delete(clientPlans).where(eq(clientPlans.id, planId));
    return { outcome: 'deleted' as const };
  });
