import { catalogByFamily, FREE_TIER, findTier, type TCatalogTier } from '@switchboard/core';
import type { Env } from '../../platform/env';

/** Test or live ids: BILLING_PRICE_MODE, else the kind of Stripe key (sk_live_ means live). */
export const billingMode = (env: Env): 'test' | 'live' =>
  env.BILLING_PRICE_MODE ?? (env.STRIPE_SECRET_KEY?.startsWith('sk_live_') ? 'live' : 'test');

export const usesStripe = (env: Env): boolean => Boolean(env.STRIPE_SECRET_KEY);

/**
 * How this server takes payments: Stripe with a key; the built-in sandbox outside production, or in
 * production only when BILLING_SANDBOX=true; otherwise none (checkout answers 503). Production never
 * falls back to the sandbox on its own.
 */
export type PaymentsMode = 'stripe' | 'sandbox' | 'none';
export const paymentsMode = (env: Env): PaymentsMode => {
  if (usesStripe(env)) return 'stripe';
  if (env.NODE_ENV !== 'production' || env.BILLING_SANDBOX) return 'sandbox';
  return 'none';
};

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server.';

const parseMap = (text: string): Map<string, string> => {
  const map = new Map<string, string>();
  for (const pair of text.split(',')) {
    const [from, to] = pair.split('=').map((part) => part.trim());
    if (from && to) map.set(from, to);
  }
  return map;
};

const cache = new WeakMap<Env, Map<string, string>>();
const idMap = (env: Env) => {
  let map = cache.get(env);
  if (!map) {
    map = parseMap(billingMode(env) === 'live' ? env.STRIPE_IDS_LIVE : env.STRIPE_IDS_TEST);
    cache.set(env, map);
  }
  return map;
};

/**
 * The provider's id for a catalog id (price or coupon). The sandbox uses catalog ids as they are;
 * Stripe needs a configured id, and a tier without one is not for sale (its card button is disabled, as the spec says).
 */
export const providerId = (env: Env, catalogId: string | null | undefined): string | null => {
  if (!catalogId) return null;
  if (!usesStripe(env)) return catalogId;
  return idMap(env).get(catalogId) ?? null;
};

/** The catalog tier a provider price id stands for. */
export const tierForProviderPrice = (
  env: Env,
  providerPriceId: string | null | undefined,
): TCatalogTier | undefined => {
  if (!providerPriceId) return undefined;
  if (!usesStripe(env)) return findTier(providerPriceId);
  for (const [catalogId, stripeId] of idMap(env)) {
    if (stripeId === providerPriceId) return findTier(catalogId);
  }
  return findTier(providerPriceId);
};

/** The plan catalog as served: catalog price ids, null where the provider has no price. */
export const servedCatalog = (env: Env) =>
  catalogByFamily((tier) => (providerId(env, tier.price_id) ? tier.price_id : null));

/** A purchasable tier by catalog price id, or undefined for unknown or unavailable ones. */
export const purchasableTier = (env: Env, priceId: string): TCatalogTier | undefined => {
  const tier = findTier(priceId);
  return tier?.is_active && providerId(env, tier.price_id) ? tier : undefined;
};

export const freePlan = FREE_TIER;

/** Number of months a billing period covers (1 for monthly, 12 for yearly). */
export const monthsIn = (start: Date | null, end: Date | null): number => {
  if (!start || !end) return 1;
  return Math.max(1, Math.round((end.getTime() - start.getTime()) / (30.44 * 86_400_000)));
};
