/**
 * The built-in payment sandbox (default without STRIPE_SECRET_KEY): customers, checkout sessions,
 * subscriptions and invoices kept in billing_sandbox_objects, with Stripe's semantics, so the whole
 * flow works offline. Its checkout page (/billing/sandbox/:id in the web app) pays or declines on
 * demand; the routes then drive the same events a Stripe webhook would.
 */
import { findTier } from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newId } from '../../platform/ids';
import type {
  ChangeInput,
  ChangeResult,
  CheckoutInput,
  PaymentProvider,
  ProrationQuote,
  ProviderCheckout,
  ProviderInvoice,
  ProviderInvoiceSummary,
  ProviderPaymentMethod,
  ProviderSubscription,
  SavedMethodCharge,
  SavedMethodChargeResult,
} from './provider';
import { sandboxInvoices, sandboxPaymentMethod } from './sandbox-billing';
import {
  addInterval,
  date,
  discountPercent,
  intervalOf,
  iso,
  type Kind,
  priceCents,
  renewalCharge,
  type SandboxCheckout,
  type SandboxSubscription,
  type StoredInvoice,
  type StoredSubscription,
} from './sandbox-objects';
import { sandboxObjects } from './schema';

export class SandboxProvider implements PaymentProvider {
  readonly kind = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    private readonly origin: () => string,
  ) {}

  private async load<T>(kind: Kind, id: string): Promise<T | null> {
    const rows = await this.db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)).limit(1);
    const row = rows[0];
    return row && row.kind === kind ? (row.data as T) : null;
  }

  private async save(kind: Kind, id: string, accountId: string | null, data: object) {
    await this.db
      .insert(sandboxObjects)
      .values({ id, kind, accountId, data })
      .onConflictDoUpdate({ target: sandboxObjects.id, set: { data } });
  }

  private toSubscription(stored: StoredSubscription): SandboxSubscription {
    return {
      ...stored,
      currentPeriodStart: date(stored.currentPeriodStart),
      currentPeriodEnd: date(stored.currentPeriodEnd),
      scheduledChangeDate: date(stored.scheduledChangeDate),
    };
  }

  private async saveSubscription(sub: SandboxSubscription) {
    const stored: StoredSubscription = {
      ...sub,
      currentPeriodStart: iso(sub.currentPeriodStart),
      currentPeriodEnd: iso(sub.currentPeriodEnd),
      scheduledChangeDate: iso(sub.scheduledChangeDate),
    };
    await this.save('subscription', sub.id, sub.accountId, stored);
    return sub;
  }

  private async createInvoice(input: Omit<ProviderInvoice, 'id'>, description?: string): Promise<ProviderInvoice> {
    const invoice: ProviderInvoice = { ...input, id: `in_${newId('sandbox').slice(4)}` };
    const stored: StoredInvoice = {
      ...invoice,
      description: description ?? findTier(invoice.priceId)?.display_name ?? 'Subscription',
      periodStart: iso(invoice.periodStart),
      periodEnd: iso(invoice.periodEnd),
    };
    await this.save('invoice', invoice.id, invoice.accountId, stored);
    return invoice;
  }

  async createCustomer(input: { accountId: string; email: string | null; name: string }) {
    // One customer per account, like Stripe's idempotency key on the first checkout.
    const id = `cus_${input.accountId.replace(/[^a-zA-Z0-9]/g, '')}`;
    await this.save('customer', id, input.accountId, { id, ...input });
    return id;
  }

  async createCheckout(input: CheckoutInput) {
    const id = `cs_${newId('sandbox').slice(4)}`;
    const checkout: SandboxCheckout = {
      ...input,
      id,
      status: 'open',
      paymentStatus: 'unpaid',
      subscriptionId: null,
      declined: false,
    };
    await this.save('checkout', id, input.accountId, checkout);
    return { id, url: `${this.origin()}/billing/sandbox/${id}` };
  }

  async expireOpenCheckouts(input: { accountId: string; customerId: string }) {
    const expired = await this.db
      .update(sandboxObjects)
      .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{status}', '"expired"')` })
      .where(
        and(
          eq(sandboxObjects.kind, 'checkout'),
          eq(sandboxObjects.accountId, input.accountId),
          sql`${sandboxObjects.data}->>'status' = 'open'`,
          sql`${sandboxObjects.data}->>'mode' = 'subscription'`,
        ),
      )
      .returning({ id: sandboxObjects.id });
    return expired.length;
  }

  async expireCheckout(id: string) {
    await this.db
      .update(sandboxObjects)
      .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{status}', '"expired"')` })
      .where(
        and(
          eq(sandboxObjects.id, id),
          eq(sandboxObjects.kind, 'checkout'),
          sql`${sandboxObjects.data}->>'status' = 'open'`,
        ),
      );
  }

  /** Cancels the subscription now and refunds its invoices (the sandbox marks them refunded). */
  async cancelDuplicate(subscription: ProviderSubscription) {
    await this.saveSubscription({ ...subscription, status: 'canceled', cancelAtPeriodEnd: false });
    await this.db
      .update(sandboxObjects)
      .set({ data: sql`${sandboxObjects.data} || jsonb_build_object('refunded', true)` })
      .where(
        and(eq(sandboxObjects.kind, 'invoice'), sql`${sandboxObjects.data}->>'subscriptionId' = ${subscription.id}`),
      );
  }

  async createPortal(input: { customerId: string; returnUrl: string }) {
    const url = new URL('/billing/sandbox/portal', this.origin());
    url.searchParams.set('returnUrl', input.returnUrl);
    return { url: url.toString() };
  }

  /** The checkout as its page shows it. */
  async checkoutDetails(id: string) {
    return this.load<SandboxCheckout>('checkout', id);
  }

  /**
   * Pays (or declines) an open sandbox checkout. Paying a subscription creates the subscription and
   * its first paid invoice; the caller then handles the checkout and invoice events.
   */
  async completeCheckout(id: string, outcome: 'pay' | 'decline', now = new Date(Math.floor(Date.now() / 1000) * 1000)) {
    // Claim the open checkout with a conditional update, so concurrent completions run it once.
    const claimed = await this.db
      .update(sandboxObjects)
      .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{status}', '"processing"')` })
      .where(
        and(
          eq(sandboxObjects.id, id),
          eq(sandboxObjects.kind, 'checkout'),
          sql`${sandboxObjects.data}->>'status' = 'open'`,
        ),
      )
      .returning({ data: sandboxObjects.data });
    const checkout = (claimed[0]?.data as SandboxCheckout | undefined) ?? null;
    if (!checkout) return { checkout: await this.load<SandboxCheckout>('checkout', id), invoiceId: null };
    checkout.status = 'open';
    if (outcome === 'decline') {
      await this.save('checkout', id, checkout.accountId, { ...checkout, declined: true });
      return { checkout: { ...checkout, declined: true }, invoiceId: null };
    }
    const amount = priceCents(checkout.priceId);
    const discounted = Math.round(amount * (1 - discountPercent(checkout.couponId, checkout.promoCode) / 100));
    let invoiceId: string | null = null;
    let subscriptionId: string | null = null;
    if (checkout.mode === 'subscription') {
      const end = addInterval(now, intervalOf(checkout.priceId));
      const sub = await this.saveSubscription({
        couponId: checkout.couponId ?? null,
        discountedInvoices: discounted < amount ? 1 : 0,
        id: `sub_${newId('sandbox').slice(4)}`,
        customerId: checkout.customerId,
        accountId: checkout.accountId,
        status: 'active',
        priceId: checkout.priceId,
        amountCents: amount,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: false,
        scheduleId: null,
        scheduledPriceId: null,
        scheduledChangeDate: null,
      });
      subscriptionId = sub.id;
      const invoice = await this.createInvoice({
        customerId: checkout.customerId,
        subscriptionId: sub.id,
        accountId: checkout.accountId,
        status: 'paid',
        amountPaid: discounted,
        billingReason: 'subscription_create',
        priceId: checkout.priceId,
        periodStart: now,
        periodEnd: end,
        paymentIntentStatus: 'succeeded',
      });
      invoiceId = invoice.id;
    }
    if (checkout.mode === 'payment') {
      // A one-time payment's receipt, listed with the invoices (it grants nothing by itself: the
      // checkout's completion grants the credits).
      await this.createInvoice({
        customerId: checkout.customerId,
        subscriptionId: null,
        accountId: checkout.accountId,
        status: 'paid',
        amountPaid: discounted,
        billingReason: 'manual',
        priceId: checkout.priceId,
        periodStart: null,
        periodEnd: null,
        paymentIntentStatus: 'succeeded',
      });
    }
    const done: SandboxCheckout = { ...checkout, status: 'complete', paymentStatus: 'paid', subscriptionId };
    await this.save('checkout', id, checkout.accountId, done);
    return { checkout: done, invoiceId };
  }

  async getCheckout(id: string): Promise<ProviderCheckout | null> {
    const checkout = await this.load<SandboxCheckout>('checkout', id);
    if (!checkout) return null;
    return {
      id: checkout.id,
      customerId: checkout.customerId,
      accountId: checkout.accountId,
      mode: checkout.mode,
      status: checkout.status,
      paymentStatus: checkout.paymentStatus,
      subscriptionId: checkout.subscriptionId,
      priceId: checkout.priceId,
    };
  }

  async getSubscription(id: string) {
    const stored = await this.load<StoredSubscription>('subscription', id);
    return stored ? this.toSubscription(stored) : null;
  }

  async findLiveSubscription(customerId: string) {
    const rows = await this.db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'subscription'));
    const subs = rows
      .map((row) => this.toSubscription(row.data as StoredSubscription))
      .filter((sub) => sub.customerId === customerId && sub.status !== 'canceled')
      .sort((a, b) => (b.currentPeriodStart?.getTime() ?? 0) - (a.currentPeriodStart?.getTime() ?? 0));
    return subs[0] ?? null;
  }

  async getInvoice(id: string) {
    const stored = await this.load<StoredInvoice>('invoice', id);
    return stored ? { ...stored, periodStart: date(stored.periodStart), periodEnd: date(stored.periodEnd) } : null;
  }

  async previewChange(input: ChangeInput): Promise<ProrationQuote> {
    const { subscription: sub, priceId, prorationDate, renewCycle } = input;
    const start = sub.currentPeriodStart?.getTime() ?? prorationDate * 1000;
    const end = sub.currentPeriodEnd?.getTime() ?? prorationDate * 1000;
    const period = Math.max(1, end - start);
    const left = Math.min(1, Math.max(0, (end - prorationDate * 1000) / period));
    const creditAmount = Math.round(sub.amountCents * left);
    const newAmount = priceCents(priceId);
    const chargeAmount = renewCycle ? newAmount : Math.round(newAmount * left);
    const nextBillingDate = renewCycle
      ? addInterval(new Date(prorationDate * 1000), intervalOf(priceId))
      : sub.currentPeriodEnd;
    return {
      creditAmount,
      chargeAmount,
      totalDueNow: Math.max(0, chargeAmount - creditAmount),
      currency: 'usd',
      nextBillingDate,
    };
  }

  async changePlan(input: ChangeInput): Promise<ChangeResult> {
    const quote = await this.previewChange(input);
    const now = new Date(input.prorationDate * 1000);
    const start = input.renewCycle ? now : (input.subscription.currentPeriodStart ?? now);
    const end = input.renewCycle ? addInterval(now, intervalOf(input.priceId)) : input.subscription.currentPeriodEnd;
    const sub = await this.saveSubscription({
      ...input.subscription,
      priceId: input.priceId,
      amountCents: priceCents(input.priceId),
      currentPeriodStart: start,
      currentPeriodEnd: end,
      scheduleId: null,
      scheduledPriceId: null,
      scheduledChangeDate: null,
    });
    const invoice = await this.createInvoice({
      customerId: sub.customerId,
      subscriptionId: sub.id,
      accountId: sub.accountId,
      status: 'paid',
      amountPaid: quote.totalDueNow,
      billingReason: 'subscription_update',
      priceId: input.priceId,
      periodStart: start,
      periodEnd: end,
      paymentIntentStatus: 'succeeded',
    });
    return { subscription: sub, invoice, requiresAction: false, paymentIntent: null };
  }

  /**
   * The sandbox's clock: ends the current period of a subscription now, as the provider would at
   * renewal. A cancellation at period end cancels it; a scheduled change takes effect; otherwise the
   * next period is billed with a paid invoice (returned, for the caller to handle its event).
   */
  async renewSubscription(
    id: string,
  ): Promise<{ subscription: ProviderSubscription; invoiceId: string | null } | null> {
    const sub = await this.getSubscription(id);
    if (!sub || sub.status === 'canceled') return null;
    if (sub.cancelAtPeriodEnd) {
      return { subscription: await this.saveSubscription({ ...sub, status: 'canceled' }), invoiceId: null };
    }
    const priceId = sub.scheduledPriceId ?? sub.priceId;
    const start = sub.currentPeriodEnd ?? new Date();
    const end = addInterval(start, intervalOf(priceId));
    // A promotion of several months (TWOMONTHS75) discounts its renewals too, as Stripe's
    // repeating coupon does.
    const charge = renewalCharge(sub, priceId);
    const renewed = await this.saveSubscription({
      ...sub,
      discountedInvoices: charge.discountedInvoices,
      priceId,
      amountCents: priceCents(priceId),
      currentPeriodStart: start,
      currentPeriodEnd: end,
      scheduleId: null,
      scheduledPriceId: null,
      scheduledChangeDate: null,
    });
    const invoice = await this.createInvoice({
      customerId: sub.customerId,
      subscriptionId: sub.id,
      accountId: sub.accountId,
      status: 'paid',
      amountPaid: charge.amount,
      billingReason: 'subscription_cycle',
      priceId,
      periodStart: start,
      periodEnd: end,
      paymentIntentStatus: 'succeeded',
    });
    return { subscription: renewed, invoiceId: invoice.id };
  }

  async scheduleChange(input: { subscription: ProviderSubscription; priceId: string }) {
    return this.saveSubscription({
      ...input.subscription,
      scheduleId: `sub_sched_${newId('sandbox').slice(4)}`,
      scheduledPriceId: input.priceId,
      scheduledChangeDate: input.subscription.currentPeriodEnd,
    });
  }

  async cancelScheduledChange(subscription: ProviderSubscription) {
    return this.saveSubscription({
      ...subscription,
      scheduleId: null,
      scheduledPriceId: null,
      scheduledChangeDate: null,
    });
  }

  async setCancelAtPeriodEnd(subscription: ProviderSubscription, cancel: boolean) {
    return this.saveSubscription({ ...subscription, cancelAtPeriodEnd: cancel });
  }

  getPaymentMethod(customerId: string): Promise<ProviderPaymentMethod | null> {
    return sandboxPaymentMethod(this.db, customerId);
  }

  listInvoices(input: { customerId: string; accountId: string; limit: number }): Promise<ProviderInvoiceSummary[]> {
    return sandboxInvoices(this.db, input);
  }

  /** Charges the sandbox test card: always succeeds, with a receipt among the invoices. */
  async chargeSavedMethod(input: SavedMethodCharge): Promise<SavedMethodChargeResult> {
    const card = await this.getPaymentMethod(input.customerId);
    if (!card) return { status: 'no_payment_method', id: null, message: 'No saved payment method.' };
    const invoice = await this.createInvoice(
      {
        customerId: input.customerId,
        subscriptionId: null,
        accountId: input.accountId,
        status: 'paid',
        amountPaid: input.amountCents,
        billingReason: 'auto_recharge',
        priceId: input.metadata.priceId ?? null,
        periodStart: null,
        periodEnd: null,
        paymentIntentStatus: 'succeeded',
      },
      input.description,
    );
    return { status: 'succeeded', id: invoice.id };
  }
}
