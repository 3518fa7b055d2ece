/**
 * The agency's own Stripe account, reached with the key it pasted (the official SDK; STRIPE_API_BASE
 * points it at a stub in tests, as for the platform's Stripe).
 */
import type Stripe from 'stripe';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { STRIPE_API_VERSION } from '../billing/stripe-provider';
import { stripeSdk } from '../billing/stripe-sdk';

export const agencyStripe = (env: Env, secretKey: string): Stripe => {
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  return new (stripeSdk())(secretKey, {
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(base
      ? {
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
        }
      : {}),
  });
};

const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode;

/** A Stripe failure on the agency's account, in words the agency or its client can act on. */
export const agencyStripeError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const err = error as { type?: string; code?: string; message?: string };
  if (err.type === 'StripeAuthenticationError' || statusOf(error) === 401) {
    return new AppError(
      'BILLING_STRIPE_ERROR',
      "The agency's Stripe account refused its key. The agency must connect Stripe again.",
      { status: 409, reason: 'agency_stripe_key_refused' },
    );
  }
  if (err.type === 'StripeCardError') {
    return new AppError('BILLING_PAYMENT_FAILED', 'The card was declined.', { reason: err.code ?? 'card_declined' });
  }
  return new AppError('BILLING_STRIPE_ERROR', 'The payment service had a temporary problem. Please retry.');
};

export const onAgencyStripe = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (error) {
    throw agencyStripeError(error);
  }
};

/**
 * Checks a key with one cheap read (the balance): a key Stripe refuses is a 422 saying so; Stripe
 * unreachable is a 502.
 */
export const checkKey = async (env: Env, secretKey: string): Promise<void> => {
  try {
    await agencyStripe(env, secretKey).balance.retrieve();
  } catch (error) {
    const err = error as { type?: string };
    if (err.type === 'StripeAuthenticationError' || statusOf(error) === 401) {
      throw new AppError(
        'VALIDATION_ERROR',
        'Stripe did not accept this key. Copy the secret key from your Stripe dashboard again.',
        {
          field: 'secretKey',
        },
      );
    }
    if (err.type === 'StripePermissionError' || statusOf(error) === 403) {
      throw new AppError(
        'VALIDATION_ERROR',
        'This restricted key cannot read your balance. Give it read access to Balance and write access to Checkout, Customers, Prices, Products, Subscriptions and Invoices.',
        { field: 'secretKey' },
      );
    }
    throw new AppError('BILLING_STRIPE_ERROR', 'Stripe could not be reached to check the key. Please retry.');
  }
};

/** Verifies a webhook with the SDK (signature, 5-minute tolerance); a mismatch is a 400. */
export const verifyAgencyEvent = (raw: Buffer, signature: string | undefined, secret: string | null): Stripe.Event => {
  if (!secret || !signature) {
    throw new AppError('WEBHOOK_VALIDATION_FAILED', 'The webhook signature did not match.', { status: 400 });
  }
  try {
    return stripeSdk().webhooks.constructEvent(raw, signature, secret, 300);
  } catch {
    throw new AppError('WEBHOOK_VALIDATION_FAILED', 'The webhook signature did not match.', { status: 400 });
  }
};
