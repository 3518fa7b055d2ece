import { createRequire } from 'node:module';
import type Stripe from 'stripe';

let loaded: typeof Stripe | undefined;

/**
 * The Stripe SDK, loaded on first use (a client or a webhook check): a server without Stripe
 * keys never holds its hundreds of resource classes in memory. Loaded synchronously so the
 * adapters keep their synchronous constructors; Stripe's failures are told apart by their `type`
 * and `statusCode`, never by class, so which of its builds is loaded does not matter.
 */
export const stripeSdk = (): typeof Stripe => {
  loaded ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return loaded;
};
