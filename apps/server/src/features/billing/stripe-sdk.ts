import type Stripe from 'stripe';
import { onFirstUse } from '../../platform/on-first-use';

/**
 * The Stripe SDK, loaded on first use (a client or a webhook check): a server without Stripe
 * keys never holds its hundreds of resource classes in memory. Loaded synchronously so the
 * adapters keep their synchronous constructors; Stripe's failures are told apart by their `type`
 * and `statusCode`, never by class, so which of its builds is loaded does not matter.
 */
export const stripeSdk = onFirstUse<typeof Stripe>('stripe');
