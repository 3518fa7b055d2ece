/** Checkout, customer portal, subscription details and the access check. */
import type { TCatalogTier, TCheckoutRequest, TPromotion } from '@switchboard/core';
import { findPromotion, PROMOTIONS, promotionAppliesTo, returnPathOn } from '@switchboard/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { accounts, memberships, subaccounts, users } from '../tenancy/schema';
import { ACTIVE_STATUSES, billingRow, ensureCustomer, hasActiveSubscription, ownerOf, providerFor } from './account';
import { providerId, purchasableTier } from './catalog';
import { openCheckoutOnce } from './open-checkouts';
import { billingAccounts } from './schema';

/** A session still payable: open, or being paid on the sandbox page this instant. */
const OPEN_SESSION_STATUSES = new Set(['open', 'processing']);

export const invalidPlan = () =>
  new AppError('BILLING_INVALID_PLAN', 'That plan is not available. Refresh and pick another plan.', {
    field: 'priceId',
  });

/** Keeps a redirect on this site: a strict path, or a URL of the same origin (see returnPathOn). */
const sameSite = (value: string | null | undefined, origin: string, fallback: string) =>
  `${origin}${returnPathOn(value, origin, fallback)}`;

export type CheckoutAnswer =
  | { url: string; promoCodeApplied: boolean }
  | { useUpgradeFlow: true; newPriceId: string }
  | { error: string; redirectToPortal: true }
  | { error: string; hasActiveSubscription: true }
  | { error: string; shouldSignIn: true };

/**
 * The promotion a checkout gets, chosen by the server: the client only names a promo code (a
 * coupon id is accepted only when it is the coupon of a promotion that applies to this plan).
 * An unknown code, or one for another plan or period, is refused rather than ignored.
 */
export const promotionFor = (tier: TCatalogTier, body: Pick<TCheckoutRequest, 'promoCode' | 'couponId'>) => {
  let promotion: TPromotion | undefined;
  if (body.promoCode) {
    promotion = findPromotion(body.promoCode);
    if (!promotion) {
      throw new AppError('VALIDATION_ERROR', 'That promo code is not valid.', { field: 'promoCode' });
    }
  }
  if (body.couponId) {
    const byCoupon = Object.values(PROMOTIONS).find((candidate) => candidate.couponId === body.couponId);
    if (!byCoupon || (promotion && promotion !== byCoupon)) {
      throw new AppError('VALIDATION_ERROR', 'That coupon is not valid.', { field: 'couponId' });
    }
    promotion = byCoupon;
  }
  if (promotion && !promotionAppliesTo(promotion, tier)) {
    throw new AppError('VALIDATION_ERROR', 'That promo code does not apply to this plan.', {
      field: body.promoCode ? 'promoCode' : 'couponId',
    });
  }
  return promotion ?? null;
};

/**
 * A remembered promo code (from a link, kept through sign-up) applies where it applies and is
 * otherwise left out: a credit pack or another plan is bought at full price and the code stays
 * with the client for the plan it is for. A code the page chose itself is checked by promotionFor.
 */
const rememberedPromotion = (deps: Deps, tier: TCatalogTier, code: string | null | undefined) => {
  const promotion = findPromotion(code);
  if (!promotion || !promotionAppliesTo(promotion, tier) || !providerId(deps.env, promotion.couponId)) return null;
  return promotion;
};

/** Accounts (by owner email) that already pay, for the 'sign in to manage it' answer. */
const emailHasActiveSubscription = async (deps: Deps, email: string) => {
  const rows = await deps.db
    .select({ status: billingAccounts.status, subscriptionId: billingAccounts.subscriptionId })
    .from(billingAccounts)
    .innerJoin(accounts, eq(accounts.id, billingAccounts.accountId))
    .innerJoin(users, eq(users.id, accounts.ownerUserId))
    .where(eq(users.email, email.trim().toLowerCase()));
  return rows.some((row) => row.subscriptionId && ACTIVE_STATUSES.has(row.status));
};

export const createCheckout = async (
  deps: Deps,
  input: { accountId: string; callerEmail: string; origin: string; body: TCheckoutRequest },
): Promise<CheckoutAnswer> => {
  const { body, origin, accountId } = input;
  // No payments on this server (production without Stripe or BILLING_SANDBOX): a clear 503 first.
  const provider = providerFor(deps, origin);
  const tier = purchasableTier(deps.env, body.priceId);
  if (!tier) throw invalidPlan();
  const explicit = promotionFor(tier, body);
  const promotion =
    explicit ?? (body.promoCode || body.couponId ? null : rememberedPromotion(deps, tier, body.rememberedPromoCode));
  const email = body.email?.trim().toLowerCase();
  if (email && email !== input.callerEmail.toLowerCase() && (await emailHasActiveSubscription(deps, email))) {
    return { error: 'This email already has an active subscription. Please sign in to manage it.', shouldSignIn: true };
  }
  const row = await billingRow(deps, accountId);
  if (row.subscriptionId && (row.status === 'past_due' || row.status === 'unpaid')) {
    return {
      error: 'Your subscription payment failed. Please update your payment method to continue.',
      redirectToPortal: true,
    };
  }
  if (tier.mode === 'subscription' && hasActiveSubscription(row)) {
    if (row.priceId === tier.price_id)
      return { error: 'You already have an active subscription!', hasActiveSubscription: true };
    return { useUpgradeFlow: true, newPriceId: tier.price_id };
  }
  const customerId = await ensureCustomer(deps, provider, accountId, row);
  const couponId = promotion ? providerId(deps.env, promotion.couponId) : null;
  if (promotion && !couponId) {
    throw new AppError('VALIDATION_ERROR', 'That promo code is not available right now.', { field: 'promoCode' });
  }
  // The receipt of the payment is mailed to the account's owner (receipt-mail.ts); /success says where.
  const owner = await ownerOf(deps.db, accountId);
  const successDefault = `/success?email=${encodeURIComponent(owner?.email ?? input.callerEmail)}`;
  const priceId = providerId(deps.env, tier.price_id) ?? tier.price_id;
  // One open checkout per account and purpose: requests at the same moment (20 clicks, two tabs)
  // share one session, and a new one opens only once it is paid, expired or replaced.
  const url = await openCheckoutOnce(
    deps,
    {
      accountId,
      purpose: tier.mode === 'subscription' ? 'plan' : 'pack',
      requestKey: `${priceId}|${couponId ?? ''}`,
    },
    {
      isOpen: async (id) => OPEN_SESSION_STATUSES.has((await provider.getCheckout(id))?.status ?? 'missing'),
      expire: (id) => provider.expireCheckout(id),
      create: async () => {
        // One live subscription per account: a new plan checkout expires the account's other open
        // plan checkouts (those opened elsewhere too), so two can never both be paid. A one-time
        // credit pack starts no subscription and leaves them open.
        if (tier.mode === 'subscription') await provider.expireOpenCheckouts({ accountId, customerId });
        return provider.createCheckout({
          accountId,
          customerId,
          priceId,
          mode: tier.mode,
          successUrl: sameSite(body.successUrl, origin, successDefault),
          cancelUrl: sameSite(body.cancelUrl, origin, '/?scrollToPricing=true'),
          couponId,
          promoCode: null,
          referralId: body.referralId ?? null,
        });
      },
    },
  );
  return { url, promoCodeApplied: promotion !== null };
};

export const createPortal = async (
  deps: Deps,
  input: { accountId: string; origin: string; returnUrl?: string | null },
) => {
  const row = await billingRow(deps, input.accountId);
  if (!row.customerId) {
    throw new AppError('BILLING_CUSTOMER_NOT_FOUND', 'A billing account must be set up first. Please contact support.');
  }
  const provider = providerFor(deps, input.origin);
  const returnUrl = sameSite(input.returnUrl ?? deps.env.STRIPE_PORTAL_RETURN_URL, input.origin, '/usage');
  return provider.createPortal({ customerId: row.customerId, returnUrl });
};

export const subscriptionDetails = async (deps: Deps, accountId: string) => {
  const row = await billingRow(deps, accountId);
  if (!hasActiveSubscription(row) && row.status !== 'past_due') return { hasSubscription: false, subscription: null };
  return { hasSubscription: true, subscription: { amount: row.amountCents, priceId: row.priceId } };
};

/** True when the user belongs to an account with an active subscription (the Dashboard shortcut rule). */
export const userHasAccess = async (deps: Deps, userId: string): Promise<boolean> => {
  const owned = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, userId));
  const member = await deps.db
    .selectDistinct({ id: subaccounts.accountId })
    .from(memberships)
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .where(eq(memberships.userId, userId));
  const ids = [...new Set([...owned, ...member].map((row) => row.id))];
  if (ids.length === 0) return false;
  const rows = await deps.db
    .select({ status: billingAccounts.status, priceId: billingAccounts.priceId })
    .from(billingAccounts)
    .where(and(inArray(billingAccounts.accountId, ids)));
  return rows.some((row) => row.priceId && ACTIVE_STATUSES.has(row.status));
};
