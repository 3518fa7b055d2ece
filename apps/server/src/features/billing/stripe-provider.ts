/** The Stripe adapter of the payment-provider interface (API version pinned below). */
import type Stripe from 'stripe';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import type {
  ChangeInput,
  ChangeResult,
  CheckoutInput,
  PaymentProvider,
  ProrationQuote,
  ProviderCheckout,
  ProviderInvoiceSummary,
  ProviderPaymentMethod,
  ProviderSubscription,
  SavedMethodCharge,
  SavedMethodChargeResult,
} from './provider';
import { chargeSavedCard, invoicesOf, paymentMethodOf } from './stripe-account-billing';
import { guard, idOf, mapStripeError, missing, seconds, toInvoice, toSubscription } from './stripe-mapping';
import { stripeSdk } from './stripe-sdk';

export const STRIPE_API_VERSION = '2026-10-28.endive';

export const createStripeClient = (env: Env): Stripe => {
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  return new (stripeSdk())(env.STRIPE_SECRET_KEY ?? '', {
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

export class StripeProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly stripe: Stripe;

  constructor(env: Env) {
    this.stripe = createStripeClient(env);
  }

  createCustomer(input: { accountId: string; email: string | null; name: string }) {
    return guard(async () => {
      // The idempotency key makes two first checkouts of one account (two clicks) one customer.
      const customer = await this.stripe.customers.create(
        { email: input.email ?? undefined, name: input.name, metadata: { accountId: input.accountId } },
        { idempotencyKey: `customer-create-${input.accountId}` },
      );
      return customer.id;
    });
  }

  createCheckout(input: CheckoutInput) {
    return guard(async () => {
      const discounts = input.couponId
        ? [{ coupon: input.couponId }]
        : input.promoCode
          ? [{ promotion_code: input.promoCode }]
          : undefined;
      const session = await this.stripe.checkout.sessions.create({
        mode: input.mode,
        customer: input.customerId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: input.referralId ?? input.accountId,
        metadata: { accountId: input.accountId, ...(input.referralId ? { referralId: input.referralId } : {}) },
        ...(discounts ? { discounts } : { allow_promotion_codes: true }),
        ...(input.mode === 'subscription'
          ? { subscription_data: { metadata: { accountId: input.accountId } } }
          : // A one-time purchase is invoiced (listed in Settings) and keeps the card, for auto-recharge.
            {
              payment_intent_data: { setup_future_usage: 'off_session' as const },
              invoice_creation: { enabled: true },
            }),
      });
      if (!session.url)
        throw new AppError('BILLING_STRIPE_ERROR', 'Failed to create checkout session - no URL returned');
      return { id: session.id, url: session.url };
    });
  }

  expireOpenCheckouts(input: { accountId: string; customerId: string }) {
    return guard(async () => {
      const open = await this.stripe.checkout.sessions.list({ customer: input.customerId, status: 'open', limit: 100 });
      let expired = 0;
      // A credit pack's checkout starts no subscription: it stays open.
      for (const session of open.data.filter((candidate) => candidate.mode === 'subscription')) {
        if (await this.expireSession(session.id)) expired += 1;
      }
      return expired;
    });
  }

  expireCheckout(id: string) {
    return guard(async () => {
      await this.expireSession(id);
    });
  }

  /** Expires a session; false when it was completed or expired meanwhile. */
  private async expireSession(id: string): Promise<boolean> {
    try {
      await this.stripe.checkout.sessions.expire(id);
      return true;
    } catch (error) {
      // Completed meanwhile: a duplicate subscription is then cancelled and refunded on its event.
      if (!missing(error) && (error as { statusCode?: number }).statusCode !== 400) throw error;
      return false;
    }
  }

  cancelDuplicate(subscription: ProviderSubscription) {
    return guard(async () => {
      const sub = await this.stripe.subscriptions.cancel(subscription.id, { prorate: false, invoice_now: false });
      const invoiceId = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : (sub.latest_invoice?.id ?? null);
      if (!invoiceId) return;
      const payments = await this.stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
      for (const payment of payments.data) {
        const intent = payment.payment.payment_intent;
        const intentId = typeof intent === 'string' ? intent : intent?.id;
        if (payment.status === 'paid' && intentId) {
          await this.stripe.refunds.create(
            { payment_intent: intentId, reason: 'duplicate' },
            { idempotencyKey: `refund-duplicate-${subscription.id}-${intentId}` },
          );
        }
      }
    });
  }

  createPortal(input: { customerId: string; returnUrl: string }) {
    return guard(async () => {
      const portal = await this.stripe.billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return { url: portal.url };
    });
  }

  async getCheckout(id: string): Promise<ProviderCheckout | null> {
    try {
      const session = await this.stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
      return {
        id: session.id,
        customerId: idOf(session.customer as string | null),
        accountId: session.metadata?.accountId ?? null,
        mode: session.mode === 'payment' ? 'payment' : 'subscription',
        status: session.status ?? 'open',
        paymentStatus: session.payment_status,
        subscriptionId: idOf(session.subscription as string | null),
        priceId: idOf(session.line_items?.data[0]?.price as { id: string } | null) ?? null,
      };
    } catch (error) {
      if (missing(error)) return null;
      throw mapStripeError(error);
    }
  }

  async getSubscription(id: string) {
    try {
      const sub = await this.stripe.subscriptions.retrieve(id);
      const scheduleId = idOf(sub.schedule as string | null);
      const schedule = scheduleId ? await this.stripe.subscriptionSchedules.retrieve(scheduleId) : null;
      return toSubscription(sub, schedule);
    } catch (error) {
      if (missing(error)) return null;
      throw mapStripeError(error);
    }
  }

  findLiveSubscription(customerId: string) {
    return guard(async () => {
      const list = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 10 });
      const live = list.data.filter((sub) => sub.status !== 'canceled' && sub.status !== 'incomplete_expired');
      const first = live[0];
      return first ? this.getSubscription(first.id) : null;
    });
  }

  async getInvoice(id: string) {
    try {
      return toInvoice(await this.stripe.invoices.retrieve(id));
    } catch (error) {
      if (missing(error)) return null;
      throw mapStripeError(error);
    }
  }

  private itemId(subscriptionId: string) {
    return this.stripe.subscriptions.retrieve(subscriptionId).then((sub) => {
      const item = sub.items.data[0];
      if (!item)
        throw new AppError('BILLING_SUBSCRIPTION_NOT_FOUND', 'No active subscription was found for this customer.');
      return item.id;
    });
  }

  previewChange(input: ChangeInput): Promise<ProrationQuote> {
    return guard(async () => {
      const itemId = await this.itemId(input.subscription.id);
      const preview = await this.stripe.invoices.createPreview({
        customer: input.subscription.customerId,
        subscription: input.subscription.id,
        subscription_details: {
          items: [{ id: itemId, price: input.priceId, quantity: 1 }],
          proration_date: input.prorationDate,
          proration_behavior: 'always_invoice',
          billing_cycle_anchor: { type: input.renewCycle ? 'now' : 'unchanged' },
        },
      });
      let creditAmount = 0;
      let chargeAmount = 0;
      let nextEnd: number | null = null;
      for (const line of preview.lines.data) {
        if (line.amount < 0) creditAmount += -line.amount;
        else chargeAmount += line.amount;
        if (line.amount >= 0) nextEnd = Math.max(nextEnd ?? 0, line.period.end);
      }
      return {
        creditAmount,
        chargeAmount,
        totalDueNow: Math.max(0, preview.amount_due),
        currency: preview.currency ?? 'usd',
        nextBillingDate: input.renewCycle ? seconds(nextEnd) : input.subscription.currentPeriodEnd,
      };
    });
  }

  changePlan(input: ChangeInput): Promise<ChangeResult> {
    return guard(async () => {
      const itemId = await this.itemId(input.subscription.id);
      const sub = await this.stripe.subscriptions.update(input.subscription.id, {
        items: [{ id: itemId, price: input.priceId, quantity: 1 }],
        proration_date: input.prorationDate,
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
        billing_cycle_anchor: { type: input.renewCycle ? 'now' : 'unchanged' },
        expand: ['latest_invoice'],
      });
      const latest = sub.latest_invoice && typeof sub.latest_invoice !== 'string' ? sub.latest_invoice : null;
      const invoice = latest ? toInvoice(latest) : null;
      const requiresAction = Boolean(sub.pending_update) || (invoice !== null && invoice.status === 'open');
      return {
        subscription: toSubscription(sub),
        invoice,
        requiresAction,
        paymentIntent:
          requiresAction && latest ? { id: latest.id ?? '', status: 'requires_action', clientSecret: null } : null,
      };
    });
  }

  scheduleChange(input: { subscription: ProviderSubscription; priceId: string }) {
    return guard(async () => {
      const sub = input.subscription;
      const scheduleId =
        sub.scheduleId ?? (await this.stripe.subscriptionSchedules.create({ from_subscription: sub.id })).id;
      const schedule = await this.stripe.subscriptionSchedules.retrieve(scheduleId);
      const current = schedule.phases[0];
      const start = current?.start_date ?? Math.floor((sub.currentPeriodStart?.getTime() ?? Date.now()) / 1000);
      const end = Math.floor((sub.currentPeriodEnd?.getTime() ?? Date.now()) / 1000);
      await this.stripe.subscriptionSchedules.update(scheduleId, {
        end_behavior: 'release',
        phases: [
          { items: [{ price: sub.priceId ?? '', quantity: 1 }], start_date: start, end_date: end },
          {
            items: [{ price: input.priceId, quantity: 1 }],
            start_date: end,
            duration: { interval: 'month', interval_count: 1 },
          },
        ],
      });
      const fresh = await this.getSubscription(sub.id);
      if (!fresh)
        throw new AppError('BILLING_SUBSCRIPTION_NOT_FOUND', 'No active subscription was found for this customer.');
      return fresh;
    });
  }

  cancelScheduledChange(subscription: ProviderSubscription) {
    return guard(async () => {
      if (subscription.scheduleId) await this.stripe.subscriptionSchedules.release(subscription.scheduleId);
      const fresh = await this.getSubscription(subscription.id);
      if (!fresh)
        throw new AppError('BILLING_SUBSCRIPTION_NOT_FOUND', 'No active subscription was found for this customer.');
      return fresh;
    });
  }

  setCancelAtPeriodEnd(subscription: ProviderSubscription, cancel: boolean) {
    return guard(async () => {
      await this.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: cancel });
      const fresh = await this.getSubscription(subscription.id);
      if (!fresh)
        throw new AppError('BILLING_SUBSCRIPTION_NOT_FOUND', 'No active subscription was found for this customer.');
      return fresh;
    });
  }

  getPaymentMethod(customerId: string): Promise<ProviderPaymentMethod | null> {
    return paymentMethodOf(this.stripe, customerId);
  }

  listInvoices(input: { customerId: string; accountId: string; limit: number }): Promise<ProviderInvoiceSummary[]> {
    return invoicesOf(this.stripe, input);
  }

  chargeSavedMethod(input: SavedMethodCharge): Promise<SavedMethodChargeResult> {
    return chargeSavedCard(this.stripe, input);
  }

  /** Verifies the signature against the raw body; throws WEBHOOK_VALIDATION_FAILED otherwise. */
  static verifyEvent(env: Env, raw: Buffer, signature: string | undefined): Stripe.Event {
    if (!env.STRIPE_WEBHOOK_SECRET || !signature) {
      throw new AppError('WEBHOOK_VALIDATION_FAILED', 'The webhook signature did not match.');
    }
    try {
      return stripeSdk().webhooks.constructEvent(raw, signature, env.STRIPE_WEBHOOK_SECRET, 300);
    } catch {
      throw new AppError('WEBHOOK_VALIDATION_FAILED', 'The webhook signature did not match.');
    }
  }
}
