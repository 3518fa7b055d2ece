/**
 * A local HTTP stand-in for the parts of the Stripe API the adapter uses, for tests: the real
 * stripe SDK talks to it through STRIPE_API_BASE. State is plain objects the test can change.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

type Json = Record<string, unknown>;

export interface StubPrice {
  id: string;
  unit_amount: number;
  interval: 'month' | 'year';
}

export interface StripeStub {
  url: string;
  requests: { method: string; path: string; form: URLSearchParams }[];
  subscriptions: Map<string, Json>;
  invoices: Map<string, Json>;
  sessions: Map<string, Json>;
  /** Customers created, by idempotency key (Stripe answers a repeated key with the first result). */
  customers: Map<string, Json>;
  refunds: Json[];
  /** Charges and disputes, by id (a test changes `amount_refunded` or a dispute's `status` here). */
  charges: Map<string, Json>;
  disputes: Map<string, Json>;
  /** The charge of an invoice's payment (made once, with a payment intent the invoice payments list). */
  chargeInvoice(invoiceId: string): Json;
  /** The charge of a paid one-time checkout (its payment intent), made once. */
  chargeCheckout(sessionId: string, amount: number): Json;
  /** Opens a dispute of a charge for `amount` (the whole charge when absent). */
  disputeCharge(chargeId: string, amount?: number): Json;
  /** Saved cards by customer id (the customer's default payment method). */
  cards: Map<string, Json>;
  /** Off-session charges (invoices paid with the saved card), by idempotency key. */
  paymentIntents: Map<string, Json>;
  /** Answer 'card_declined' to off-session charges, and fail invoice listing, when set. */
  failures: { declineCharges: boolean; invoicesDown: boolean };
  /** Saves a card as the customer's default payment method. */
  addCard(customer: string, card: { brand: string; last4: string; exp_month: number; exp_year: number }): Json;
  /** A live subscription of a customer made outside our checkout (a second tab, a late payment). */
  makeSubscription(customer: string, price: StubPrice, accountId: string): Json;
  /** Makes a paid subscription invoice for the period and stores it. */
  addInvoice(input: {
    id: string;
    subscription: string;
    price: StubPrice;
    start: number;
    end: number;
    accountId?: string;
  }): Json;
  close(): Promise<void>;
}

export const startStripeStub = async (prices: StubPrice[]): Promise<StripeStub> => {
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const refunds: Json[] = [];
  const charges = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  const cards = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const failures = { declineCharges: false, invoicesDown: false };
  const requests: StripeStub['requests'] = [];
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${++counter}`;
  const priceOf = (id: string) =>
    prices.find((price) => price.id === id) ?? { id, unit_amount: 0, interval: 'month' as const };
  const month = 30 * 86_400;

  const makeSubscription = (customer: string, price: StubPrice, accountId: string) => {
    const now = Math.floor(Date.now() / 1000);
    const sub: Json = {
      id: next('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      schedule: null,
      metadata: { accountId },
      items: {
        object: 'list',
        data: [
          {
            id: next('si'),
            price: { id: price.id, unit_amount: price.unit_amount },
            quantity: 1,
            current_period_start: now,
            current_period_end: now + (price.interval === 'year' ? 12 : 1) * month,
          },
        ],
      },
    };
    subscriptions.set(sub.id as string, sub);
    const invoice = addInvoice({
      id: next('in'),
      subscription: sub.id as string,
      price,
      start: now,
      end: now + (price.interval === 'year' ? 12 : 1) * month,
      accountId,
    });
    invoice.customer = customer;
    invoice.billing_reason = 'subscription_create';
    invoice.payment_intent_id = next('pi');
    sub.latest_invoice = invoice.id;
    return sub;
  };

  const addInvoice: StripeStub['addInvoice'] = (input) => {
    const sub = subscriptions.get(input.subscription);
    const invoice: Json = {
      id: input.id,
      object: 'invoice',
      customer: sub?.customer ?? 'cus_unknown',
      status: 'paid',
      amount_paid: input.price.unit_amount,
      amount_due: input.price.unit_amount,
      currency: 'usd',
      billing_reason: 'subscription_cycle',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: input.subscription, metadata: { accountId: input.accountId ?? null } },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: next('il'),
            amount: input.price.unit_amount,
            period: { start: input.start, end: input.end },
            pricing: { type: 'price_details', price_details: { price: input.price.id } },
          },
        ],
      },
    };
    invoices.set(input.id, invoice);
    return invoice;
  };

  const chargeInvoice: StripeStub['chargeInvoice'] = (invoiceId) => {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`No invoice ${invoiceId}`);
    invoice.payment_intent_id ??= next('pi');
    const known = [...charges.values()].find((charge) => charge.payment_intent === invoice.payment_intent_id);
    if (known) return known;
    const charge: Json = {
      id: next('ch'),
      object: 'charge',
      amount: invoice.amount_paid,
      amount_refunded: 0,
      currency: 'usd',
      customer: invoice.customer,
      payment_intent: invoice.payment_intent_id,
      metadata: {},
    };
    charges.set(charge.id as string, charge);
    return charge;
  };

  const chargeCheckout: StripeStub['chargeCheckout'] = (sessionId, amount) => {
    const session = sessions.get(sessionId);
    if (!session?.payment_intent) throw new Error(`No paid one-time checkout ${sessionId}`);
    const known = [...charges.values()].find((charge) => charge.payment_intent === session.payment_intent);
    if (known) return known;
    const charge: Json = {
      id: next('ch'),
      object: 'charge',
      amount,
      amount_refunded: 0,
      currency: 'usd',
      customer: session.customer,
      payment_intent: session.payment_intent,
      metadata: {},
    };
    charges.set(charge.id as string, charge);
    return charge;
  };

  const disputeCharge: StripeStub['disputeCharge'] = (chargeId, amount) => {
    const charge = charges.get(chargeId);
    if (!charge) throw new Error(`No charge ${chargeId}`);
    const dispute: Json = {
      id: next('dp'),
      object: 'dispute',
      charge: chargeId,
      amount: amount ?? charge.amount,
      currency: 'usd',
      status: 'needs_response',
    };
    disputes.set(dispute.id as string, dispute);
    return dispute;
  };

  const addCard: StripeStub['addCard'] = (customer, card) => {
    const method: Json = { id: next('pm'), object: 'payment_method', type: 'card', customer, card };
    cards.set(customer, method);
    return method;
  };

  const item = (sub: Json) =>
    (sub.items as { data: Json[] }).data[0] as Json & { price: { id: string; unit_amount: number } };

  /** Proration as Stripe computes it for a cycle reset: unused time credited, new period charged. */
  const quote = (sub: Json, priceId: string, prorationDate: number) => {
    const current = item(sub);
    const start = current.current_period_start as number;
    const end = current.current_period_end as number;
    const unused = Math.max(0, Math.min(1, (end - prorationDate) / Math.max(1, end - start)));
    const credit = Math.round(current.price.unit_amount * unused);
    const price = priceOf(priceId);
    const periodEnd = prorationDate + (price.interval === 'year' ? 12 : 1) * month;
    return { credit, charge: price.unit_amount, price, periodEnd };
  };

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const form = new URLSearchParams(await readBody(request));
    const path = url.pathname;
    requests.push({ method: request.method ?? 'GET', path, form });
    const send = (status: number, body: Json) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const missing = () =>
      send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${path}` },
      });
    const parts = path.split('/').filter(Boolean);
    if (request.method === 'POST' && path === '/v1/customers') {
      const key = String(request.headers['idempotency-key'] ?? '');
      const known = key ? customers.get(key) : undefined;
      if (known) return send(200, known);
      const customer = { id: next('cus'), object: 'customer' };
      if (key) customers.set(key, customer);
      return send(200, customer);
    }
    if (request.method === 'GET' && parts[1] === 'customers' && parts[2]) {
      const card = cards.get(parts[2]) ?? null;
      const expanded = url.searchParams.getAll('expand[]').includes('invoice_settings.default_payment_method');
      return send(200, {
        id: parts[2],
        object: 'customer',
        invoice_settings: { default_payment_method: card && expanded ? card : ((card?.id as string) ?? null) },
      });
    }
    if (request.method === 'GET' && path === '/v1/payment_methods') {
      const card = cards.get(url.searchParams.get('customer') ?? '');
      return send(200, { object: 'list', data: card ? [card] : [], has_more: false });
    }
    const idempotent = (status: number, build: () => Json) => {
      const key = String(request.headers['idempotency-key'] ?? '');
      const known = key ? paymentIntents.get(key) : undefined;
      if (known) return send(200, known);
      const made = build();
      if (key && status === 200) paymentIntents.set(key, made);
      return send(status, made);
    };
    if (request.method === 'POST' && path === '/v1/invoices') {
      const id = next('in');
      const invoice: Json = {
        id,
        object: 'invoice',
        customer: form.get('customer'),
        status: 'draft',
        amount_paid: 0,
        amount_due: 0,
        currency: 'usd',
        billing_reason: 'manual',
        description: form.get('description'),
        metadata: { accountId: form.get('metadata[accountId]'), priceId: form.get('metadata[priceId]') },
        lines: { object: 'list', data: [] },
      };
      invoices.set(id, invoice);
      return send(200, invoice);
    }
    if (request.method === 'POST' && path === '/v1/invoiceitems') {
      const invoice = invoices.get(form.get('invoice') ?? '');
      if (!invoice) return missing();
      const amount = Number(form.get('amount'));
      (invoice.lines as { data: Json[] }).data.push({ id: next('il'), amount, description: form.get('description') });
      invoice.amount_due = Number(invoice.amount_due) + amount;
      return send(200, { id: next('ii'), object: 'invoiceitem', amount, invoice: invoice.id });
    }
    if (request.method === 'POST' && parts[1] === 'invoices' && parts[2] && parts[3] === 'finalize') {
      const invoice = invoices.get(parts[2]);
      if (!invoice) return missing();
      if (invoice.status === 'draft') invoice.status = 'open';
      return send(200, invoice);
    }
    if (request.method === 'POST' && parts[1] === 'invoices' && parts[2] && parts[3] === 'void') {
      const invoice = invoices.get(parts[2]);
      if (!invoice) return missing();
      invoice.status = 'void';
      return send(200, invoice);
    }
    if (request.method === 'POST' && parts[1] === 'invoices' && parts[2] && parts[3] === 'pay') {
      const invoice = invoices.get(parts[2]);
      if (!invoice) return missing();
      if (failures.declineCharges) {
        return send(402, {
          error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Declined' },
        });
      }
      return idempotent(200, () => {
        invoice.status = 'paid';
        invoice.amount_paid = invoice.amount_due;
        invoice.paid_off_session = form.get('off_session');
        invoice.payment_method = form.get('payment_method');
        invoice.payment_intent_id = next('pi');
        return invoice;
      });
    }
    if (request.method === 'GET' && path === '/v1/invoices') {
      if (failures.invoicesDown) return send(500, { error: { type: 'api_error', message: 'Stub down' } });
      const data = [...invoices.values()]
        .filter((invoice) => invoice.customer === url.searchParams.get('customer'))
        .map((invoice) => ({
          created: Math.floor(Date.now() / 1000),
          number: `INV-${invoice.id}`,
          hosted_invoice_url: `https://invoice.stripe.test/${invoice.id}`,
          invoice_pdf: `https://invoice.stripe.test/${invoice.id}.pdf`,
          ...invoice,
        }))
        .reverse();
      return send(200, { object: 'list', data, has_more: false });
    }
    if (request.method === 'GET' && path === '/v1/checkout/sessions') {
      const intent = url.searchParams.get('payment_intent');
      const data = [...sessions.values()].filter(
        (session) =>
          (intent ? session.payment_intent === intent : session.customer === url.searchParams.get('customer')) &&
          (!url.searchParams.get('status') || session.status === url.searchParams.get('status')),
      );
      return send(200, { object: 'list', data, has_more: false });
    }
    if (request.method === 'POST' && parts[1] === 'checkout' && parts[3] && parts[4] === 'expire') {
      const session = sessions.get(parts[3]);
      if (!session) return missing();
      if (session.status !== 'open') {
        return send(400, { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } });
      }
      session.status = 'expired';
      return send(200, session);
    }
    if (request.method === 'GET' && parts[1] === 'charges' && parts[2]) {
      const charge = charges.get(parts[2]);
      return charge ? send(200, charge) : missing();
    }
    if (request.method === 'GET' && parts[1] === 'disputes' && parts[2]) {
      const dispute = disputes.get(parts[2]);
      return dispute ? send(200, dispute) : missing();
    }
    if (
      request.method === 'GET' &&
      path === '/v1/invoice_payments' &&
      url.searchParams.get('payment[payment_intent]')
    ) {
      const intent = url.searchParams.get('payment[payment_intent]');
      const data = [...invoices.values()]
        .filter((invoice) => invoice.payment_intent_id === intent)
        .map((invoice) => ({
          id: next('inpay'),
          object: 'invoice_payment',
          invoice: invoice.id,
          status: 'paid',
          payment: { type: 'payment_intent', payment_intent: intent },
        }));
      return send(200, { object: 'list', data, has_more: false });
    }
    if (request.method === 'GET' && path === '/v1/invoice_payments') {
      const invoice = invoices.get(url.searchParams.get('invoice') ?? '');
      const data = invoice?.payment_intent_id
        ? [
            {
              id: next('inpay'),
              object: 'invoice_payment',
              status: 'paid',
              payment: { type: 'payment_intent', payment_intent: invoice.payment_intent_id },
            },
          ]
        : [];
      return send(200, { object: 'list', data, has_more: false });
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      const refund = {
        id: next('re'),
        object: 'refund',
        payment_intent: form.get('payment_intent'),
        status: 'succeeded',
      };
      refunds.push(refund);
      return send(200, refund);
    }
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      const price = priceOf(form.get('line_items[0][price]') ?? '');
      const session: Json = {
        id: next('cs'),
        object: 'checkout.session',
        url: `https://checkout.stripe.test/${counter}`,
        mode: form.get('mode'),
        customer: form.get('customer'),
        metadata: { accountId: form.get('metadata[accountId]') },
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        line_items: { object: 'list', data: [{ price: { id: price.id } }] },
        discounts: form.get('discounts[0][coupon]'),
      };
      sessions.set(session.id as string, session);
      return send(200, session);
    }
    if (parts[1] === 'checkout' && parts[3] && request.method === 'GET') {
      const session = sessions.get(parts[3]);
      if (!session) return missing();
      if (session.status === 'open' && session.mode === 'subscription') {
        const price = priceOf((session.line_items as { data: { price: { id: string } }[] }).data[0]?.price.id ?? '');
        const sub = makeSubscription(session.customer as string, price, (session.metadata as Json).accountId as string);
        session.subscription = sub.id;
        session.status = 'complete';
        session.payment_status = 'paid';
      }
      if (session.status === 'open' && session.mode === 'payment') {
        session.status = 'complete';
        session.payment_status = 'paid';
        session.payment_intent = next('pi');
      }
      return send(200, session);
    }
    if (path === '/v1/billing_portal/sessions')
      return send(200, { id: next('bps'), url: 'https://billing.stripe.test/portal' });
    if (path === '/v1/invoices/create_preview') {
      const sub = subscriptions.get(form.get('subscription') ?? '');
      if (!sub) return missing();
      const prorationDate = Number(form.get('subscription_details[proration_date]'));
      const { credit, charge, price, periodEnd } = quote(
        sub,
        form.get('subscription_details[items][0][price]') ?? '',
        prorationDate,
      );
      return send(200, {
        object: 'invoice',
        currency: 'usd',
        amount_due: Math.max(0, charge - credit),
        lines: {
          object: 'list',
          data: [
            { amount: -credit, period: { start: prorationDate, end: item(sub).current_period_end } },
            {
              amount: charge,
              period: { start: prorationDate, end: periodEnd },
              pricing: { price_details: { price: price.id } },
            },
          ],
        },
      });
    }
    if (parts[1] === 'invoices' && parts[2]) {
      const invoice = invoices.get(parts[2]);
      return invoice ? send(200, invoice) : missing();
    }
    if (parts[1] === 'subscription_schedules') {
      const scheduleId = parts[2] ?? next('sub_sched');
      const subId =
        form.get('from_subscription') ?? [...subscriptions.values()].find((sub) => sub.schedule === scheduleId)?.id;
      const sub = subscriptions.get(String(subId));
      if (!sub) return missing();
      if (parts[3] === 'release') {
        sub.schedule = null;
        sub.phases = undefined;
        return send(200, { id: scheduleId, object: 'subscription_schedule' });
      }
      sub.schedule = scheduleId;
      if (form.get('phases[1][items][0][price]')) {
        sub.phases = [
          {
            start_date: Number(form.get('phases[0][start_date]')),
            items: [{ price: form.get('phases[0][items][0][price]') }],
          },
          {
            start_date: Number(form.get('phases[1][start_date]')),
            items: [{ price: form.get('phases[1][items][0][price]') }],
          },
        ];
      }
      const phases = (sub.phases as Json[] | undefined) ?? [
        { start_date: item(sub).current_period_start, items: [{ price: item(sub).price.id }] },
      ];
      return send(200, { id: scheduleId, object: 'subscription_schedule', phases });
    }
    if (parts[1] === 'subscriptions' && parts[2]) {
      const sub = subscriptions.get(parts[2]);
      if (!sub) return missing();
      if (request.method === 'DELETE') {
        sub.status = 'canceled';
        return send(200, sub);
      }
      if (request.method === 'POST') {
        if (form.get('cancel_at_period_end')) sub.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
        const priceId = form.get('items[0][price]');
        if (priceId) {
          const prorationDate = Number(form.get('proration_date'));
          const { credit, charge, price, periodEnd } = quote(sub, priceId, prorationDate);
          const current = item(sub);
          current.price = { id: price.id, unit_amount: price.unit_amount };
          current.current_period_start = prorationDate;
          current.current_period_end = periodEnd;
          const invoice = addInvoice({
            id: next('in'),
            subscription: sub.id as string,
            price,
            start: prorationDate,
            end: periodEnd,
          });
          invoice.amount_paid = Math.max(0, charge - credit);
          invoice.billing_reason = 'subscription_update';
          sub.latest_invoice = invoice;
        }
      }
      return send(200, sub);
    }
    if (path === '/v1/subscriptions') {
      return send(200, { object: 'list', data: [...subscriptions.values()], has_more: false });
    }
    return missing();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    invoices,
    sessions,
    customers,
    refunds,
    charges,
    disputes,
    chargeInvoice,
    chargeCheckout,
    disputeCharge,
    cards,
    paymentIntents,
    failures,
    addCard,
    makeSubscription,
    addInvoice,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
