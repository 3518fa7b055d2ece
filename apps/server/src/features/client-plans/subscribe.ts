/**
 * A client chooses one of its agency's plans: a checkout on the agency's Stripe (or the labelled
 * sandbox when the agency connected none, never in production), one open checkout per client; a
 * client already subscribed moves its subscription to the new plan; cancelling ends it at the
 * period's end.
 */
import type { TClientCheckoutResponse } from '@switchboard/core';
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { dropCachedAllowance } from '../billing/allowances';
import { assertFeature } from '../billing/limits';
import { onAgencyStripe } from './agency-stripe';
import { type OverageBiller, setPlanAllowance } from './events';
import { openClientCheckoutOnce } from './open-checkout';
import { findPlan, LIVE_STATUSES, type PlanRow } from './plans';
import { clientPlans, clientSandboxCheckouts, clientSubscriptions } from './schema';
import { connectionOf, NOT_CONNECTED, paymentsModeOf, settingsRow } from './settings';

interface Client {
  accountId: string;
  subaccountId: string;
}

/** A sandbox checkout left open longer than this is expired. */
const SANDBOX_CHECKOUT_TTL_MS = 24 * 60 * 60_000;

const notConnected = () =>
  new AppError('BILLING_STRIPE_ERROR', NOT_CONNECTED, { status: 409, reason: 'agency_stripe_not_connected' });

export const subscriptionOf = async (deps: Deps, subaccountId: string) =>
  (await deps.db.select().from(clientSubscriptions).where(eq(clientSubscriptions.subaccountId, subaccountId)))[0];

const isLive = (status: string) => LIVE_STATUSES.includes(status);

/** The plan's recurring price on the agency's Stripe, made the first time it is needed. */
const stripePriceOf = async (deps: Deps, stripe: Stripe, plan: PlanRow): Promise<string> => {
  if (plan.stripePriceId) return plan.stripePriceId;
  const price = await onAgencyStripe(() =>
    stripe.prices.create({
      currency: plan.currency,
      unit_amount: plan.priceMinor,
      recurring: { interval: 'month' },
      product_data: { name: plan.name, metadata: { accountId: plan.accountId, planId: plan.id } },
      metadata: { accountId: plan.accountId, planId: plan.id },
    }),
  );
  const [stored] = await deps.db
    .update(clientPlans)
    .set({ stripePriceId: price.id })
    .where(and(eq(clientPlans.id, plan.id), isNull(clientPlans.stripePriceId)))
    .returning({ stripePriceId: clientPlans.stripePriceId });
  return stored?.stripePriceId ?? (await findPlan(deps.db, plan.accountId, plan.id)).stripePriceId ?? price.id;
};

/** The client's customer on the agency's Stripe, made once (stored on its subscription row). */
const stripeCustomerOf = async (deps: Deps, stripe: Stripe, client: Client, name: string): Promise<string> => {
  await deps.db
    .insert(clientSubscriptions)
    .values({ subaccountId: client.subaccountId, accountId: client.accountId, provider: 'stripe', status: 'none' })
    .onConflictDoNothing();
  const row = await subscriptionOf(deps, client.subaccountId);
  if (row?.customerId && row.provider === 'stripe') return row.customerId;
  const customer = await onAgencyStripe(() =>
    stripe.customers.create(
      { name, metadata: { accountId: client.accountId, subaccountId: client.subaccountId } },
      { idempotencyKey: `client-customer-${client.subaccountId}-${row?.updatedAt.getTime() ?? 0}` },
    ),
  );
  const [stored] = await deps.db
    .update(clientSubscriptions)
    .set({ customerId: customer.id, provider: 'stripe' })
    .where(
      and(
        eq(clientSubscriptions.subaccountId, client.subaccountId),
        eq(clientSubscriptions.status, row?.status ?? 'none'),
      ),
    )
    .returning({ customerId: clientSubscriptions.customerId });
  return stored?.customerId ?? customer.id;
};

const stripeCheckout = async (
  deps: Deps,
  stripe: Stripe,
  client: Client,
  plan: PlanRow,
  input: { origin: string; clientName: string },
) => {
  const price = await stripePriceOf(deps, stripe, plan);
  const customer = await stripeCustomerOf(deps, stripe, client, input.clientName);
  const metadata = { accountId: client.accountId, subaccountId: client.subaccountId, planId: plan.id };
  const session = await onAgencyStripe(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price, quantity: 1 }],
      success_url: `${input.origin}/${client.subaccountId}/plan?checkout=success`,
      cancel_url: `${input.origin}/${client.subaccountId}/plan?checkout=cancelled`,
      client_reference_id: client.subaccountId,
      metadata,
      subscription_data: { metadata },
      // The card is kept for extra credits and top-ups charged later.
      payment_method_collection: 'always',
    }),
  );
  if (!session.url) throw new AppError('BILLING_STRIPE_ERROR', 'Stripe returned no checkout address. Please retry.');
  return { id: session.id, url: session.url };
};

const sandboxCheckout = async (deps: Deps, client: Client, plan: PlanRow, origin: string) => {
  const id = newId('clientCheckout');
  await deps.db.insert(clientSandboxCheckouts).values({ id, ...client, planId: plan.id });
  return { id, url: `${origin}/client-billing/sandbox/${id}` };
};

const sandboxIsOpen = async (deps: Deps, id: string) => {
  const [row] = await deps.db.select().from(clientSandboxCheckouts).where(eq(clientSandboxCheckouts.id, id));
  return Boolean(row && row.status === 'open' && row.createdAt.getTime() > Date.now() - SANDBOX_CHECKOUT_TTL_MS);
};

/** Moves a live subscription to another plan (prorated on Stripe), and the allowance with it. */
const changePlan = async (
  deps: Deps,
  client: Client,
  current: typeof clientSubscriptions.$inferSelect,
  plan: PlanRow,
  stripe: Stripe | null,
) => {
  if (current.provider === 'stripe') {
    if (!stripe) throw notConnected();
    const subscriptionId = current.subscriptionId as string;
    const price = await stripePriceOf(deps, stripe, plan);
    await onAgencyStripe(async () => {
      const live = await stripe.subscriptions.retrieve(subscriptionId);
      const item = live.items.data[0];
      await stripe.subscriptions.update(subscriptionId, {
        items: [{ ...(item ? { id: item.id } : {}), price }],
        proration_behavior: 'create_prorations',
        cancel_at_period_end: false,
        metadata: { accountId: client.accountId, subaccountId: client.subaccountId, planId: plan.id },
      });
    });
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(clientSubscriptions)
      .set({ planId: plan.id, cancelAtPeriodEnd: false, updatedAt: new Date() })
      .where(eq(clientSubscriptions.subaccountId, client.subaccountId));
    await setPlanAllowance(tx, client.accountId, client.subaccountId, plan, new Set());
  });
  dropCachedAllowance(client.subaccountId);
};

export const startClientCheckout = async (
  deps: Deps,
  client: Client,
  input: { planId: string; origin: string; clientName: string },
): Promise<TClientCheckoutResponse> => {
  await assertFeature(deps, client.accountId, 'whitelabel_subaccounts');
  const plan = await findPlan(deps.db, client.accountId, input.planId);
  if (plan.archivedAt)
    throw new AppError('BILLING_INVALID_PLAN', 'This plan is no longer offered. Choose another plan.');
  const settings = await settingsRow(deps, client.accountId);
  const mode = paymentsModeOf(deps, settings);
  if (mode === 'none') throw notConnected();
  const connection = connectionOf(deps, settings);
  const current = await subscriptionOf(deps, client.subaccountId);
  if (current?.subscriptionId && isLive(current.status)) {
    if (current.planId === plan.id && !current.cancelAtPeriodEnd) {
      throw new AppError('CONFLICT', 'This client is on this plan already.');
    }
    await changePlan(deps, client, current, plan, connection?.stripe ?? null);
    return { url: null, sandbox: current.provider === 'sandbox', outcome: 'changed' };
  }
  const stripe = connection?.stripe;
  const url = await openClientCheckoutOnce(
    deps,
    { subaccountId: client.subaccountId, purpose: 'plan', requestKey: `${mode}:${plan.id}:${plan.priceMinor}` },
    stripe
      ? {
          create: () => stripeCheckout(deps, stripe, client, plan, input),
          isOpen: async (id) => {
            try {
              return (await stripe.checkout.sessions.retrieve(id)).status === 'open';
            } catch {
              return false;
            }
          },
          expire: async (id) => {
            await stripe.checkout.sessions.expire(id).catch(() => undefined);
          },
        }
      : {
          create: () => sandboxCheckout(deps, client, plan, input.origin),
          isOpen: (id) => sandboxIsOpen(deps, id),
          expire: async (id) => {
            await deps.db
              .update(clientSandboxCheckouts)
              .set({ status: 'expired' })
              .where(and(eq(clientSandboxCheckouts.id, id), eq(clientSandboxCheckouts.status, 'open')));
          },
        },
  );
  return { url, sandbox: !stripe, outcome: 'checkout' };
};

/** Cancels at the end of the paid period; the client keeps its plan and credits until then. */
export const cancelClientPlan = async (deps: Deps, client: Client) => {
  const current = await subscriptionOf(deps, client.subaccountId);
  if (!current?.subscriptionId || !isLive(current.status)) {
    throw new AppError('CONFLICT', 'This client has no plan to cancel.');
  }
  if (current.provider === 'stripe') {
    const connection = connectionOf(deps, await settingsRow(deps, client.accountId));
    if (!connection) throw notConnected();
    await onAgencyStripe(() =>
      connection.stripe.subscriptions.update(current.subscriptionId as string, { cancel_at_period_end: true }),
    );
  }
  await deps.db
    .update(clientSubscriptions)
    .set({ cancelAtPeriodEnd: true, updatedAt: new Date() })
    .where(eq(clientSubscriptions.subaccountId, client.subaccountId));
};

/** Extra credits go onto the client's next invoice on the agency's Stripe, once per month. */
export const stripeOverageBiller =
  (stripe: Stripe): OverageBiller =>
  async (input) => {
    await stripe.invoiceItems.create(
      {
        customer: input.customerId,
        subscription: input.subscriptionId,
        amount: input.amountMinor,
        currency: input.currency,
        description: `Extra credits ${input.month}: ${Math.ceil(input.credits).toLocaleString('en-US')}`,
        metadata: { subaccountId: input.subaccountId, month: input.month },
      },
      { idempotencyKey: `client-overage-${input.subaccountId}-${input.month}` },
    );
  };
