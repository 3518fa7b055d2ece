import { FREE_TIER, findTier, type TCatalogTier } from '@switchboard/core';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { accounts, users } from '../tenancy/schema';
import { PAYMENTS_NOT_CONFIGURED, paymentsMode } from './catalog';
import { lockAccount } from './ledger-repo';
import type { PaymentProvider } from './provider';
import { SandboxProvider } from './sandbox-provider';
import { billingAccounts } from './schema';
import { StripeProvider } from './stripe-provider';

const stripeProviders = new WeakMap<Deps, StripeProvider>();

/**
 * Stripe when STRIPE_SECRET_KEY is set, the sandbox where it is allowed (its pages live at
 * `origin`); a 503 when this server takes no payments (production without Stripe or BILLING_SANDBOX).
 */
export const providerFor = (deps: Deps, origin: string): PaymentProvider => {
  const mode = paymentsMode(deps.env);
  if (mode === 'none') {
    throw new AppError('SERVER_CONFIG_ERROR', PAYMENTS_NOT_CONFIGURED, {
      status: 503,
      reason: 'payments_not_configured',
    });
  }
  if (mode === 'sandbox') return new SandboxProvider(deps.db, () => origin);
  let provider = stripeProviders.get(deps);
  if (!provider) {
    provider = new StripeProvider(deps.env);
    stripeProviders.set(deps, provider);
  }
  return provider;
};

export type BillingRow = typeof billingAccounts.$inferSelect;

/** The account's billing row, created (with the free grant) the first time. */
export const billingRow = async (deps: Deps, accountId: string): Promise<BillingRow> =>
  deps.db.transaction((tx) => lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS));

export const ACTIVE_STATUSES = new Set(['active', 'trialing']);
export const hasActiveSubscription = (row: BillingRow) =>
  Boolean(row.subscriptionId) && ACTIVE_STATUSES.has(row.status);

/** The plan the account is on: its tier, or the free plan. */
export const currentPlan = (deps: Deps, row: BillingRow) => {
  const tier = findTier(row.priceId);
  if (tier && ACTIVE_STATUSES.has(row.status)) {
    return { tier, displayName: tier.display_name, creditLimit: tier.credit_limit, capabilities: tier.capabilities };
  }
  return {
    tier: null as TCatalogTier | null,
    displayName: FREE_TIER.display_name,
    creditLimit: deps.env.FREE_PLAN_CREDITS,
    capabilities: FREE_TIER.capabilities,
  };
};

export const planSummary = (tier: TCatalogTier) => ({
  displayName: tier.display_name,
  creditLimit: tier.credit_limit,
  priceId: tier.price_id,
  planCode: tier.plan_code,
  tierCode: tier.tier_code,
});

/** Creates the provider customer the first time and remembers it. */
export const ensureCustomer = async (deps: Deps, provider: PaymentProvider, accountId: string, row: BillingRow) => {
  if (row.customerId) return row.customerId;
  const [account] = await deps.db
    .select({ name: accounts.name, email: users.email })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.ownerUserId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!account) throw new AppError('NOT_FOUND', 'Account not found');
  // The provider call is idempotent per account, and only the first id is stored: two clicks on
  // two first checkouts never make two customers.
  const customerId = await provider.createCustomer({ accountId, email: account.email, name: account.name });
  const stored = await deps.db
    .update(billingAccounts)
    .set({ customerId })
    .where(and(eq(billingAccounts.accountId, accountId), isNull(billingAccounts.customerId)))
    .returning({ customerId: billingAccounts.customerId });
  if (stored[0]?.customerId) return stored[0].customerId;
  const [again] = await deps.db
    .select({ customerId: billingAccounts.customerId })
    .from(billingAccounts)
    .where(eq(billingAccounts.accountId, accountId));
  return again?.customerId ?? customerId;
};

export const subscriptionNotFound = () =>
  new AppError(
    'BILLING_SUBSCRIPTION_NOT_FOUND',
    'No active subscription was found for this customer. Please resubscribe first or contact support.',
    { status: 409 },
  );

/** The live provider subscription of the account, or a 409 'needs attention' error. */
export const liveSubscription = async (provider: PaymentProvider, row: BillingRow) => {
  if (!row.subscriptionId) throw subscriptionNotFound();
  const sub = await provider.getSubscription(row.subscriptionId);
  if (!sub || sub.status === 'canceled') throw subscriptionNotFound();
  return sub;
};

/** The account's owner (their email) and the account's name, the addressee of its billing mail. */
export const ownerOf = async (db: Db | Tx, accountId: string) => {
  const [owner] = await db
    .select({ email: users.email, name: accounts.name })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.ownerUserId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  return owner ?? null;
};
