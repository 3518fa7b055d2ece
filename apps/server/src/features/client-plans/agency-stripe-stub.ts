/**
 * For tests: a local HTTP stand-in for the part of an agency's Stripe account client plans use
 * (balance, prices, customers, checkout sessions, subscriptions, invoice items). The real SDK talks
 * to it through STRIPE_API_BASE; keys it does not know are refused as Stripe refuses them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../testing/read-body';

type Json = Record<string, unknown>;

export interface AgencyStripeStub {
  url: string;
  /** Keys answered 200; any other key is refused with 401. */
  keys: Set<string>;
  requests: { method: string; path: string; key: string; form: URLSearchParams }[];
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoiceItems: Json[];
  /** Saved cards by customer id, and off-session payments made. */
  cards: Map<string, Json>;
  paymentIntents: Json[];
  /** Answer off-session payments with a card decline when set. */
  failures: { declineCharges: boolean };
  /** Milliseconds each checkout session creation takes (to let concurrent requests overlap). */
  sessionDelayMs: number;
  /** Completes an open session: a subscription with the session's metadata and a first period. */
  complete(sessionId: string): Json;
  close(): Promise<void>;
}

const metadataOf = (form: URLSearchParams, prefix: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = key.match(new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`));
    if (match?.[1]) out[match[1]] = value;
  }
  return out;
};

/** Listens on `listenPort` (a free one by default; the browser journey's server expects a fixed one). */
export const startAgencyStripeStub = async (keys: string[], listenPort = 0): Promise<AgencyStripeStub> => {
  const keySet = new Set(keys);
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const invoiceItems: Json[] = [];
  const cards = new Map<string, Json>();
  const paymentIntents: Json[] = [];
  const failures = { declineCharges: false };
  const requests: AgencyStripeStub['requests'] = [];
  const state = { sessionDelayMs: 0 };
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${++counter}`;
  const month = 30 * 86_400;

  const complete = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No session ${sessionId}`);
    const now = Math.floor(Date.now() / 1000);
    const sub: Json = {
      id: next('sub'),
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      cancel_at_period_end: false,
      metadata: session.subscription_metadata,
      items: {
        object: 'list',
        data: [
          { id: next('si'), price: { id: session.price }, current_period_start: now, current_period_end: now + month },
        ],
      },
    };
    subscriptions.set(sub.id as string, sub);
    session.status = 'complete';
    session.subscription = sub.id;
    return sub;
  };

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const form = new URLSearchParams(await readBody(request));
    const path = url.pathname;
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    requests.push({ method: request.method ?? 'GET', path, key, form });
    const send = (status: number, body: Json) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (!keySet.has(key)) {
      return send(401, {
        error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}***` },
      });
    }
    const missing = () =>
      send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${path}` },
      });
    const parts = path.split('/').filter(Boolean);
    const post = request.method === 'POST';
    if (path === '/v1/balance') return send(200, { object: 'balance', available: [], pending: [], livemode: false });
    if (post && path === '/v1/prices') {
      return send(200, {
        id: next('price'),
        object: 'price',
        unit_amount: Number(form.get('unit_amount')),
        currency: form.get('currency'),
        recurring: { interval: form.get('recurring[interval]') },
        metadata: metadataOf(form, 'metadata'),
      });
    }
    if (post && path === '/v1/customers') {
      const idempotency = String(request.headers['idempotency-key'] ?? '');
      const known = idempotency ? customers.get(idempotency) : undefined;
      if (known) return send(200, known);
      const customer = { id: next('cus'), object: 'customer', metadata: metadataOf(form, 'metadata') };
      if (idempotency) customers.set(idempotency, customer);
      return send(200, customer);
    }
    if (post && path === '/v1/checkout/sessions') {
      if (state.sessionDelayMs) await new Promise((resolve) => setTimeout(resolve, state.sessionDelayMs));
      const session: Json = {
        id: next('cs'),
        object: 'checkout.session',
        url: `https://checkout.stripe.test/${counter}`,
        mode: form.get('mode'),
        customer: form.get('customer'),
        price: form.get('line_items[0][price]'),
        metadata: metadataOf(form, 'metadata'),
        subscription_metadata: metadataOf(form, 'subscription_data[metadata]'),
        status: 'open',
        subscription: null,
      };
      sessions.set(session.id as string, session);
      return send(200, session);
    }
    if (parts[1] === 'checkout' && parts[2] === 'sessions' && parts[3]) {
      const session = sessions.get(parts[3]);
      if (!session) return missing();
      if (post && parts[4] === 'expire') {
        if (session.status !== 'open') {
          return send(400, { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } });
        }
        session.status = 'expired';
      }
      return send(200, session);
    }
    if (parts[1] === 'subscriptions' && parts[2]) {
      const sub = subscriptions.get(parts[2]);
      if (!sub) return missing();
      if (post) {
        if (form.get('cancel_at_period_end')) sub.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
        const price = form.get('items[0][price]');
        if (price) ((sub.items as { data: Json[] }).data[0] as Json).price = { id: price };
        const metadata = metadataOf(form, 'metadata');
        if (Object.keys(metadata).length > 0) sub.metadata = metadata;
      }
      return send(200, sub);
    }
    if (request.method === 'GET' && path === '/v1/payment_methods') {
      const card = cards.get(url.searchParams.get('customer') ?? '');
      return send(200, { object: 'list', data: card ? [card] : [], has_more: false });
    }
    if (post && path === '/v1/payment_intents') {
      const idempotency = String(request.headers['idempotency-key'] ?? '');
      const known = paymentIntents.find((intent) => intent.idempotency === idempotency);
      if (known) return send(200, known);
      if (failures.declineCharges) {
        return send(402, {
          error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Declined' },
        });
      }
      const intent: Json = {
        id: next('pi'),
        object: 'payment_intent',
        idempotency,
        status: 'succeeded',
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        customer: form.get('customer'),
        payment_method: form.get('payment_method'),
        off_session: form.get('off_session'),
        metadata: metadataOf(form, 'metadata'),
      };
      paymentIntents.push(intent);
      return send(200, intent);
    }
    if (post && path === '/v1/invoiceitems') {
      const idempotency = String(request.headers['idempotency-key'] ?? '');
      const known = invoiceItems.find((item) => item.idempotency === idempotency);
      if (known) return send(200, known);
      const item: Json = {
        id: next('ii'),
        object: 'invoiceitem',
        idempotency,
        customer: form.get('customer'),
        subscription: form.get('subscription'),
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        description: form.get('description'),
      };
      invoiceItems.push(item);
      return send(200, item);
    }
    return missing();
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys: keySet,
    requests,
    sessions,
    subscriptions,
    invoiceItems,
    cards,
    paymentIntents,
    failures,
    get sessionDelayMs() {
      return state.sessionDelayMs;
    },
    set sessionDelayMs(value: number) {
      state.sessionDelayMs = value;
    },
    complete,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
