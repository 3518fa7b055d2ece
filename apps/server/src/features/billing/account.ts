import { FREE_TIER, findTier, type TCatalogTier } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { users } from '../auth/schema';
import { accounts } from '../tenancy/schema';
import { usesStripe } from './catalog';
import { lockAccount } from './ledger-repo';
import type { PaymentProvider } from './provider';
import { SandboxProvider } from './sandbox-provider';
import { billingAccounts } from './schema';
import { StripeProvider } from './stripe-provider';

const stripeProviders = new WeakMap<Deps, StripeProvider>();

/** Stripe when STRIPE_SECRET_KEY is set, the sandbox otherwise (its pages live at `origin`). */
export const providerFor = (deps: Deps, origin: string): PaymentProvider => {
  if (!usesStripe(deps.env)) return new SandboxProvider(deps.db, () => origin);
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
  const customerId = await provider.createCustomer({ accountId, email: account.email, name: account.name });
  await deps.db.update(billingAccounts).set({ customerId }).where(eq(billingAccounts.accountId, accountId));
  return customerId;
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
