/**
 * The labelled sandbox checkout for clients of an agency without Stripe (outside production): a
 * page that pays or cancels on demand and drives the same event handler as the agency's webhook.
 * It runs no renewals: a sandbox subscription stays in its first period until cancelled or replaced.
 */
import type { TClientSandboxCheckout } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { findMembership } from '../../platform/guard';
import { applyClientEvent } from './events';
import { forgetOpenCheckout } from './open-checkout';
import { clientPlans, clientSandboxCheckouts } from './schema';

const notFound = () => new AppError('NOT_FOUND', 'Checkout not found');

const checkoutRow = async (deps: Deps, id: string) =>
  (
    await deps.db
      .select({ checkout: clientSandboxCheckouts, plan: clientPlans })
      .from(clientSandboxCheckouts)
      .innerJoin(clientPlans, eq(clientPlans.id, clientSandboxCheckouts.planId))
      .where(eq(clientSandboxCheckouts.id, id))
      .limit(1)
  )[0];

/** Whether the user may pay this checkout: an admin of its client (the agency's manager is one). */
export const mayPaySandboxCheckout = async (deps: Deps, userId: string, id: string): Promise<boolean> => {
  const row = await checkoutRow(deps, id);
  if (!row) return false;
  const membership = await findMembership(deps.db, userId, row.checkout.subaccountId);
  return membership?.role === 'admin' || membership?.role === 'client';
};

export const sandboxCheckoutDetails = async (deps: Deps, id: string): Promise<TClientSandboxCheckout> => {
  const row = await checkoutRow(deps, id);
  if (!row) throw notFound();
  return {
    id,
    sandbox: true,
    status: row.checkout.status,
    planName: row.plan.name,
    priceMinor: row.plan.priceMinor,
    currency: row.plan.currency,
    includedCredits: row.plan.includedCredits,
    subaccountId: row.checkout.subaccountId,
  };
};

/** Pays (or cancels) an open sandbox checkout: a subscription, its first invoice, the plan's allowance. */
export const finishSandboxCheckout = async (deps: Deps, id: string, outcome: 'pay' | 'cancel') => {
  const row = await checkoutRow(deps, id);
  if (!row) throw notFound();
  const [claimed] = await deps.db
    .update(clientSandboxCheckouts)
    .set({ status: outcome === 'pay' ? 'complete' : 'expired' })
    .where(and(eq(clientSandboxCheckouts.id, id), eq(clientSandboxCheckouts.status, 'open')))
    .returning();
  if (!claimed) throw new AppError('CONFLICT', 'This checkout is no longer open.');
  await forgetOpenCheckout(deps, claimed.subaccountId, id);
  if (outcome === 'cancel') return sandboxCheckoutDetails(deps, id);
  const { accountId, subaccountId, planId } = claimed;
  const subscriptionId = `sbxsub_${id}`;
  await applyClientEvent(deps, accountId, `sandbox:${id}:completed`, 'checkout.session.completed', {
    kind: 'checkout.completed',
    provider: 'sandbox',
    sessionId: id,
    subaccountId,
    planId,
    customerId: null,
    subscriptionId,
  });
  const start = new Date();
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 1);
  await applyClientEvent(deps, accountId, `sandbox:${id}:invoice`, 'invoice.paid', {
    kind: 'invoice.paid',
    provider: 'sandbox',
    invoiceId: `sbxin_${id}`,
    subscriptionId,
    subaccountId,
    planId,
    customerId: null,
    amountMinor: row.plan.priceMinor,
    currency: row.plan.currency,
    billingReason: 'subscription_create',
    periodStart: start,
    periodEnd: end,
    url: null,
  });
  return sandboxCheckoutDetails(deps, id);
};
