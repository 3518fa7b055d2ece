/** What the Billing section asks Stripe: the saved card, the invoices, and off-session charges (auto-recharge). */
import type Stripe from 'stripe';
import type {
  ProviderInvoiceSummary,
  ProviderPaymentMethod,
  SavedMethodCharge,
  SavedMethodChargeResult,
} from './provider';
import { guard, mapStripeError } from './stripe-mapping';

/** The customer's default card for invoices, else its newest saved card. */
const savedCard = async (stripe: Stripe, customerId: string): Promise<Stripe.PaymentMethod | null> => {
  const customer = await stripe.customers.retrieve(customerId, {
    expand: ['invoice_settings.default_payment_method'],
  });
  if (customer.deleted) return null;
  const preferred = customer.invoice_settings?.default_payment_method;
  if (preferred && typeof preferred !== 'string' && preferred.card) return preferred;
  const cards = await stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 });
  return cards.data[0] ?? null;
};

export const paymentMethodOf = (stripe: Stripe, customerId: string): Promise<ProviderPaymentMethod | null> =>
  guard(async () => {
    const card = (await savedCard(stripe, customerId))?.card;
    if (!card) return null;
    return { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
  });

export const invoicesOf = (
  stripe: Stripe,
  input: { customerId: string; limit: number },
): Promise<ProviderInvoiceSummary[]> =>
  guard(async () => {
    const list = await stripe.invoices.list({ customer: input.customerId, limit: input.limit });
    return list.data
      .filter((invoice) => invoice.status !== 'draft')
      .map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number ?? null,
        amount: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
        currency: (invoice.currency ?? 'usd').toUpperCase(),
        status: invoice.status ?? 'open',
        createdAt: new Date(invoice.created * 1000),
        description: invoice.lines?.data[0]?.description ?? invoice.description ?? 'Invoice',
        hostedUrl: invoice.hosted_invoice_url ?? null,
        pdfUrl: invoice.invoice_pdf ?? null,
      }));
  });

/**
 * An invoice of one item, paid off-session with the saved card, so the purchase is listed with
 * the invoices (page and PDF). Every call carries an idempotency key derived from the charge's.
 */
export const chargeSavedCard = async (stripe: Stripe, input: SavedMethodCharge): Promise<SavedMethodChargeResult> => {
  const card = await guard(() => savedCard(stripe, input.customerId));
  if (!card) return { status: 'no_payment_method', id: null, message: 'No saved payment method.' };
  const key = input.idempotencyKey;
  const metadata = { accountId: input.accountId, ...input.metadata };
  const draft = await guard(() =>
    stripe.invoices.create(
      {
        customer: input.customerId,
        collection_method: 'charge_automatically',
        auto_advance: false,
        pending_invoice_items_behavior: 'exclude',
        description: input.description,
        metadata,
      },
      { idempotencyKey: `${key}-invoice` },
    ),
  );
  const invoiceId = draft.id ?? '';
  try {
    await stripe.invoiceItems.create(
      {
        customer: input.customerId,
        invoice: invoiceId,
        amount: input.amountCents,
        currency: 'usd',
        description: input.description,
        metadata,
      },
      { idempotencyKey: `${key}-item` },
    );
    await stripe.invoices.finalizeInvoice(invoiceId, { auto_advance: false }, { idempotencyKey: `${key}-final` });
    const paid = await stripe.invoices.pay(
      invoiceId,
      { off_session: true, payment_method: card.id },
      { idempotencyKey: `${key}-pay` },
    );
    if (paid.status === 'paid') return { status: 'succeeded', id: invoiceId };
    return { status: 'failed', id: invoiceId, message: 'The bank asked for the card holder to confirm the payment.' };
  } catch (error) {
    const mapped = mapStripeError(error);
    // A refused charge leaves no invoice due: it is voided (nothing collects it later).
    await stripe.invoices.voidInvoice(invoiceId).catch(() => undefined);
    if (mapped.code === 'BILLING_PAYMENT_FAILED') return { status: 'failed', id: invoiceId, message: mapped.message };
    throw mapped;
  }
};
