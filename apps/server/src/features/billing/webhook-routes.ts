/**
 * Where payment events come in: the Stripe webhook (signature checked against the raw body) and the
 * sandbox checkout page's pay/decline call, which drives the same event handler.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { managesAccount } from '../../platform/account-scope';
import { AppError } from '../../platform/errors';
import { callerOf, publicAccess, tenantOf, userAccess } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { accountManager } from './access';
import { billingRow, providerFor, subscriptionNotFound } from './account';
import { usesStripe } from './catalog';
import { SandboxProvider } from './sandbox-provider';
import { sandboxReversalRoutes } from './sandbox-reversal-routes';
import { linkSandboxReceipt } from './sandbox-reversals';
import { StripeProvider } from './stripe-provider';
import { handleProviderEvent } from './sync';

const tags = ['billing'];

export const paymentEventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  await app.register(sandboxReversalRoutes);
  await app.register(async (scope) => {
    // Encapsulated in this scope: JSON bodies stay raw buffers so the signature can be checked.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    for (const path of ['/api/stripe/webhook', '/stripe/webhook']) {
      scope.post(path, { config: publicAccess(), schema: { tags, hide: true } }, async (request) => {
        if (!usesStripe(deps.env)) throw new AppError('WEBHOOK_NOT_FOUND', 'Stripe is not configured on this server.');
        const raw = request.body as Buffer;
        if (!Buffer.isBuffer(raw) || raw.length === 0)
          throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook carried no body.');
        const signature = request.headers['stripe-signature'];
        const event = StripeProvider.verifyEvent(deps.env, raw, typeof signature === 'string' ? signature : undefined);
        const object = (event.data?.object ?? {}) as { id?: string; object?: string };
        if (!object.id) return { received: true, outcome: 'ignored' };
        const outcome = await handleProviderEvent(deps, providerFor(deps, originOf(request, deps.env)), {
          id: event.id,
          type: event.type,
          created: event.created,
          objectId: object.id,
          objectType: object.object ?? '',
        });
        return { received: true, outcome };
      });
    }
  });

  const sandboxFor = (origin: string) => {
    const provider = providerFor(deps, origin);
    if (!(provider instanceof SandboxProvider)) throw new AppError('NOT_FOUND', 'Checkout not found');
    return provider;
  };

  /** The sandbox checkout, only for the manager of the account it belongs to (who may buy plans). */
  const ownCheckout = async (provider: SandboxProvider, id: string, userId: string) => {
    const checkout = await provider.checkoutDetails(id);
    if (!checkout) throw new AppError('NOT_FOUND', 'Checkout not found');
    if (!(await managesAccount(deps.db, userId, checkout.accountId))) {
      throw new AppError('NOT_FOUND', 'Checkout not found');
    }
    return checkout;
  };

  const ZParams = z.object({ checkoutId: z.string().max(80) });

  /** The guard's check, before the body is read: another account's checkout is not found. */
  const checkoutAccess = userAccess({
    sessionOnly: true,
    owns: async (request, _deps, caller) => {
      const { checkoutId } = request.params as { checkoutId?: unknown };
      if (typeof checkoutId !== 'string' || checkoutId.length > 80) return false;
      try {
        await ownCheckout(sandboxFor(originOf(request, deps.env)), checkoutId, caller.userId);
        return true;
      } catch {
        return false;
      }
    },
  });

  app.get(
    '/api/billing/sandbox/checkouts/:checkoutId',
    { config: checkoutAccess, schema: { tags, params: ZParams } },
    async (request) => {
      const provider = sandboxFor(originOf(request, deps.env));
      const checkout = await ownCheckout(provider, request.params.checkoutId, callerOf(request).userId);
      return {
        id: checkout.id,
        status: checkout.status,
        mode: checkout.mode,
        sandbox: true,
        couponId: checkout.couponId ?? null,
        priceId: checkout.priceId,
        declined: checkout.declined,
        successUrl: checkout.successUrl,
        cancelUrl: checkout.cancelUrl,
      };
    },
  );

  app.post(
    '/api/billing/sandbox/checkouts/:checkoutId/complete',
    {
      config: checkoutAccess,
      schema: { tags, params: ZParams, body: z.object({ outcome: z.enum(['pay', 'decline']) }) },
    },
    async (request) => {
      const { outcome } = request.body;
      const provider = sandboxFor(originOf(request, deps.env));
      await ownCheckout(provider, request.params.checkoutId, callerOf(request).userId);
      const result = await provider.completeCheckout(request.params.checkoutId, outcome);
      if (!result.checkout) throw new AppError('NOT_FOUND', 'Checkout not found');
      if (result.checkout.status === 'expired') {
        // Another checkout was opened since: this one can no longer be paid (one live subscription).
        throw new AppError('CONFLICT', 'This checkout has expired. Start a new one from the pricing page.', {
          reason: 'checkout_expired',
        });
      }
      if (outcome === 'decline') {
        return { status: 'declined', message: 'Your card was declined.', redirectUrl: result.checkout.cancelUrl };
      }
      const eventId = () => `evt_sbx_${randomBytes(8).toString('hex')}`;
      const created = Math.floor(Date.now() / 1000);
      await handleProviderEvent(deps, provider, {
        id: eventId(),
        type: 'checkout.session.completed',
        created,
        objectId: result.checkout.id,
        objectType: 'checkout.session',
      });
      // A one-time purchase's receipt is a paid invoice too, as on Stripe (its commission, its refunds).
      const invoiceId =
        result.invoiceId ??
        (result.checkout.mode === 'payment'
          ? await linkSandboxReceipt(deps.db, {
              id: result.checkout.id,
              accountId: result.checkout.accountId,
              priceId: result.checkout.priceId,
            })
          : null);
      if (invoiceId) {
        await handleProviderEvent(deps, provider, {
          id: eventId(),
          type: 'invoice.paid',
          created,
          objectId: invoiceId,
          objectType: 'invoice',
        });
      }
      return { status: 'paid', message: 'Payment successful', redirectUrl: result.checkout.successUrl };
    },
  );

  /** Sandbox only, outside production: ends the billing period now (renewal, scheduled change, cancellation). */
  app.post(
    '/api/billing/sandbox/renew',
    { config: accountManager(), schema: { tags, hide: true } },
    async (request) => {
      if (deps.env.NODE_ENV === 'production') throw new AppError('NOT_FOUND', 'Not found');
      const provider = sandboxFor(originOf(request, deps.env));
      const row = await billingRow(deps, tenantOf(request).accountId);
      if (!row.subscriptionId) throw subscriptionNotFound();
      const renewed = await provider.renewSubscription(row.subscriptionId);
      if (!renewed) throw subscriptionNotFound();
      const created = Math.floor(Date.now() / 1000);
      const eventId = () => `evt_sbx_${randomBytes(8).toString('hex')}`;
      await handleProviderEvent(deps, provider, {
        id: eventId(),
        type:
          renewed.subscription.status === 'canceled'
            ? 'customer.subscription.deleted'
            : 'customer.subscription.updated',
        created,
        objectId: renewed.subscription.id,
        objectType: 'subscription',
      });
      if (renewed.invoiceId) {
        await handleProviderEvent(deps, provider, {
          id: eventId(),
          type: 'invoice.paid',
          created,
          objectId: renewed.invoiceId,
          objectType: 'invoice',
        });
      }
      return { status: renewed.subscription.status, priceId: renewed.subscription.priceId };
    },
  );
};
