import { MISSING_PRICE_ID } from '@switchboard/core';
import { ApiError, api } from '../../lib/api';
import { storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { CHECKOUT_RETURN_URL_KEY } from '../auth/sign-in-dialog';
import { openSignIn, registerNewUserCheckout } from '../auth/sign-in-store';
import { forgetsRememberedPromo, promoFields } from './remembered-promo';

export const PENDING_PRICE_KEY = 'checkout:pendingPriceId';
export const REFERRAL_KEY = 'checkout:referralId';
/** A promo code from the landing page (`/?promo=CODE`), kept through sign-up until checkout uses it. */
export const PROMO_KEY = 'checkout:promoCode';

interface CheckoutAnswer {
  url?: string;
  /** The checkout carries the promotion of the promo code sent (named or remembered). */
  promoCodeApplied?: boolean;
  useUpgradeFlow?: boolean;
  newPriceId?: string;
  redirectToPortal?: boolean;
  hasActiveSubscription?: boolean;
  shouldSignIn?: boolean;
  error?: string | { message?: string };
}

export interface CheckoutOptions {
  priceId: string | null | undefined;
  signedIn: boolean;
  navigate: (path: string) => void;
  couponId?: string | null;
  promoCode?: string | null;
  /** Where a signed-out visitor comes back to after signing in. */
  returnUrl?: string;
  /** Page after a paid checkout; the server's default is /success?email=. */
  successPath?: string;
  /** Page when the checkout is left; the pricing section by default. */
  cancelPath?: string;
  /** 'payment' for a one-time credit pack. */
  mode?: 'subscription' | 'payment';
}

const messageOf = (body: CheckoutAnswer | null): string | null =>
  typeof body?.error === 'string' ? body.error : (body?.error?.message ?? null);

export const openBillingPortal = async (returnUrl = '/usage') => {
  const { url } = await api<{ url: string }>('/api/stripe/create-portal', { body: { returnUrl } });
  window.location.assign(url);
};

/** Starts checkout for a price with every answer of spec billing-accounts 4 (Checkout). */
export const startCheckout = async (options: CheckoutOptions): Promise<void> => {
  const { priceId, navigate } = options;
  if (!priceId) {
    toast.error(MISSING_PRICE_ID);
    return;
  }
  if (!options.signedIn) {
    const returnUrl = options.returnUrl ?? `${window.location.pathname}${window.location.search}`;
    storage.set(CHECKOUT_RETURN_URL_KEY, returnUrl);
    storage.set(PENDING_PRICE_KEY, priceId);
    openSignIn({ priceId, returnUrl });
    return;
  }
  let body: CheckoutAnswer | null = null;
  const remembered = storage.get<string | null>(PROMO_KEY, null);
  try {
    body = await api<CheckoutAnswer>('/api/stripe/create-checkout', {
      silent: true,
      body: {
        priceId,
        mode: options.mode ?? 'subscription',
        successUrl: options.successPath ? `${window.location.origin}${options.successPath}` : undefined,
        cancelUrl: `${window.location.origin}${options.cancelPath ?? '/?scrollToPricing=true'}`,
        ...promoFields(options, remembered),
        referralId: storage.get<string | null>(REFERRAL_KEY, null) ?? undefined,
      },
    });
  } catch (error) {
    if (error instanceof ApiError && error.status > 0) {
      toast.error(error.message || `Failed to create checkout session (${error.status})`);
    } else {
      toast.error('Failed to create checkout. Please try again.');
    }
    return;
  }
  if (body?.url) {
    if (forgetsRememberedPromo(options, body, remembered)) storage.remove(PROMO_KEY);
    const opened = window.open(body.url, '_blank');
    if (opened) opened.opener = null;
    else window.location.assign(body.url);
    return;
  }
  if (body?.useUpgradeFlow) {
    try {
      await api('/api/stripe/upgrade-subscription', {
        body: { newPriceId: body.newPriceId ?? priceId, renewCycle: true },
        silent: true,
      });
      navigate('/usage?upgrade_success=true');
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : 'Failed to upgrade subscription');
    }
    return;
  }
  if (body?.redirectToPortal) {
    toast.error(messageOf(body) ?? 'Your subscription payment failed. Please update your payment method to continue.');
    setTimeout(() => toast.info('Redirecting to payment update...'), 1_000);
    setTimeout(() => void openBillingPortal().catch(() => toast.error('Failed to open the billing portal')), 3_000);
    return;
  }
  if (body?.hasActiveSubscription) {
    toast.error(messageOf(body) ?? 'You already have an active subscription!');
    setTimeout(() => toast.info('Redirecting to dashboard...'), 500);
    setTimeout(() => navigate('/dashboard'), 2_000);
    return;
  }
  if (body?.shouldSignIn) {
    toast.error(messageOf(body) ?? 'This email already has an active subscription. Please sign in to manage it.');
    setTimeout(() => toast.info('Opening sign in...'), 500);
    setTimeout(() => openSignIn({ priceId }), 2_000);
    return;
  }
  toast.error(messageOf(body) ?? 'Failed to create checkout session - no URL returned');
};

/**
 * A new user chose a price before signing in: checkout needs a session, so the price is kept and
 * checkout resumes right after sign-in (BillingWatchers); the sign-in link is sent as usual.
 */
registerNewUserCheckout(async (_email, signIn) => {
  if (signIn.priceId) storage.set(PENDING_PRICE_KEY, signIn.priceId);
  return false;
});
