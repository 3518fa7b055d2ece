/**
 * A local HTTP stand-in for the parts of Twilio's REST API the adapter uses, for tests: the real
 * twilio SDK talks to it through TWILIO_API_URL over a socket. It checks Basic auth like Twilio,
 * answers Twilio's error bodies, lets a test queue failures (429 with Retry-After, 503), and lists
 * the messages it accepted with Twilio's filters (To, From, DateSent, DateSent<, DateSent>) and
 * paging, newest first, as reconciliation asks for them. It also lists WhatsApp templates as the
 * Content API does (GET /v1/ContentAndApprovals, paged through meta.next_page_url): point
 * TWILIO_CONTENT_API_URL at it too.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

export interface StubSentMessage {
  sid: string;
  accountSid: string;
  params: Record<string, string | string[]>;
  /** The I-Twilio-Idempotency-Token header it was sent with, if any. */
  key: string | null;
  at: number;
}

type Failure = { status: number; headers?: Record<string, string>; code?: number; message?: string };

export interface TwilioStub {
  url: string;
  /** Accepted username → password pairs (Account SID → auth token, or API key SID → secret). */
  credentials: Map<string, string>;
  messages: StubSentMessage[];
  requests: { method: string; path: string }[];
  /** Answers the next message creations with these (status, headers, body) before succeeding again. */
  failNext(...answers: Failure[]): void;
  /** Answers the next message list requests with these before listing again. */
  failList(...answers: Failure[]): void;
  /** Content API templates (see `stubContent`), listed by GET /v1/ContentAndApprovals in this order. */
  contents: Record<string, unknown>[];
  /** Answers the next ContentAndApprovals requests with these before listing again. */
  failContent(...answers: Failure[]): void;
  /** Called with each accepted message before it is answered (a test revokes credentials there). */
  onMessage: ((message: StubSentMessage) => void) | null;
  close(): Promise<void>;
}

const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

const resource = (message: StubSentMessage) => ({
  sid: message.sid,
  account_sid: message.accountSid,
  to: message.params.To,
  from: message.params.From ?? null,
  messaging_service_sid: message.params.MessagingServiceSid ?? null,
  body: message.params.Body ?? '',
  status: 'sent',
  direction: 'outbound-api',
  date_created: rfc2822(message.at),
  date_updated: rfc2822(message.at),
  date_sent: rfc2822(message.at),
});

/** Twilio's list filters: To, From, DateSent (that day), DateSent< and DateSent> (on or before, on or after). */
const listed = (message: StubSentMessage, query: URLSearchParams) => {
  const at = (value: string) => Date.parse(value.length <= 10 ? `${value}T00:00:00Z` : value);
  const on = query.get('DateSent');
  const before = query.get('DateSent<');
  const after = query.get('DateSent>');
  if (query.get('To') && message.params.To !== query.get('To')) return false;
  if (query.get('From') && message.params.From !== query.get('From')) return false;
  if (on && new Date(message.at).toISOString().slice(0, 10) !== on.slice(0, 10)) return false;
  if (before && message.at > at(before)) return false;
  if (after && message.at < at(after)) return false;
  return true;
};

/** A Content API resource as ContentAndApprovals lists it: a twilio/text template and its WhatsApp approval. */
export const stubContent = (template: {
  sid: string;
  name: string;
  body: string;
  variables?: Record<string, string>;
  status?: string;
  language?: string;
}) => ({
  sid: template.sid,
  account_sid: `AC${'a1'.repeat(16)}`,
  friendly_name: template.name,
  language: template.language ?? 'en',
  variables: template.variables ?? {},
  types: { 'twilio/text': { body: template.body } },
  url: `https://content.twilio.com/v1/Content/${template.sid}`,
  date_created: '2026-01-05T10:00:00Z',
  date_updated: '2026-01-05T10:00:00Z',
  approval_requests: {
    name: template.name,
    category: 'UTILITY',
    content_type: 'twilio/text',
    status: template.status ?? 'approved',
    rejection_reason: '',
    allow_category_change: true,
  },
});

export const TEST_ACCOUNT_SID = `AC${'a1'.repeat(16)}`;
export const TEST_AUTH_TOKEN = 'f'.repeat(32);

/** `listenPort` 0 takes any free port; the browser journeys' server is told a fixed one (e2e/serve.mjs). */
export const startTwilioStub = async (listenPort = 0): Promise<TwilioStub> => {
  const credentials = new Map<string, string>([[TEST_ACCOUNT_SID, TEST_AUTH_TOKEN]]);
  const messages: StubSentMessage[] = [];
  const requests: TwilioStub['requests'] = [];
  const failures: Failure[] = [];
  const listFailures: Failure[] = [];
  const contents: Record<string, unknown>[] = [];
  const contentFailures: Failure[] = [];
  const fail = (failure: Failure, send: (status: number, body: unknown, headers?: Record<string, string>) => void) =>
    send(
      failure.status,
      {
        code: failure.code ?? (failure.status === 429 ? 20429 : 20500),
        message: failure.message ?? 'Stub failure',
        status: failure.status,
      },
      failure.headers,
    );
  const stub = { onMessage: null } as Pick<TwilioStub, 'onMessage'>;

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    requests.push({ method: request.method ?? 'GET', path: url.pathname });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    const auth = request.headers.authorization ?? '';
    const [user = '', pass = ''] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    if (credentials.get(user) !== pass)
      return send(401, {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });

    if (request.method === 'GET' && url.pathname === '/v1/ContentAndApprovals') {
      const failure = contentFailures.shift();
      if (failure) return fail(failure, send);
      const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get('PageSize') ?? 50)));
      const page = Math.max(0, Number(url.searchParams.get('Page') ?? 0));
      const base = `http://${request.headers.host}${url.pathname}`;
      const pageUrl = (at: number) => `${base}?PageSize=${pageSize}&Page=${at}`;
      return send(200, {
        contents: contents.slice(page * pageSize, (page + 1) * pageSize),
        meta: {
          page,
          page_size: pageSize,
          first_page_url: pageUrl(0),
          previous_page_url: page > 0 ? pageUrl(page - 1) : null,
          url: pageUrl(page),
          next_page_url: (page + 1) * pageSize < contents.length ? pageUrl(page + 1) : null,
          key: 'contents',
        },
      });
    }

    const account = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\.json$/);
    if (request.method === 'GET' && account)
      return send(200, { sid: account[1], friendly_name: 'Stub account', status: 'active', type: 'Full' });

    const create = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/);
    if (request.method === 'GET' && create) {
      const failure = listFailures.shift();
      if (failure) return fail(failure, send);
      const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get('PageSize') ?? 50)));
      const page = Math.max(0, Number(url.searchParams.get('Page') ?? 0));
      const all = messages.filter((message) => listed(message, url.searchParams)).reverse();
      const next = new URLSearchParams(url.searchParams);
      next.set('Page', String(page + 1));
      next.set('PageSize', String(pageSize));
      return send(200, {
        messages: all.slice(page * pageSize, (page + 1) * pageSize).map(resource),
        page,
        page_size: pageSize,
        uri: `${url.pathname}?${url.searchParams}`,
        next_page_uri: (page + 1) * pageSize < all.length ? `${url.pathname}?${next}` : null,
      });
    }
    if (request.method === 'POST' && create) {
      const form = new URLSearchParams(await readBody(request));
      const params: Record<string, string | string[]> = {};
      for (const key of new Set(form.keys())) {
        const values = form.getAll(key);
        params[key] = values.length > 1 ? values : (values[0] as string);
      }
      const failure = failures.shift();
      if (failure) return fail(failure, send);
      const to = String(params.To ?? '').replace(/^whatsapp:/, '');
      if (to === '+15005550001')
        return send(400, {
          code: 21211,
          message: "The 'To' number +15005550001 is not a valid phone number.",
          status: 400,
        });
      // Twilio refuses a body over 1,600 characters (error 21617).
      if (String(params.Body ?? '').length > 1600)
        return send(400, {
          code: 21617,
          message: 'The concatenated message body exceeds the 1600 character limit.',
          status: 400,
        });
      if (!params.Body && !params.ContentSid && !params.MediaUrl)
        return send(400, { code: 21602, message: 'Message body is required.', status: 400 });
      const sid = `SM${randomBytes(16).toString('hex')}`;
      const key = request.headers['i-twilio-idempotency-token'];
      const message = { sid, accountSid: create[1] as string, params, key: key ? String(key) : null, at: Date.now() };
      messages.push(message);
      stub.onMessage?.(message);
      return send(201, { sid, status: 'queued', to: params.To, from: params.From ?? null, body: params.Body ?? '' });
    }
    send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    credentials,
    messages,
    requests,
    failNext: (...answers: Failure[]) => failures.push(...answers),
    failList: (...answers: Failure[]) => listFailures.push(...answers),
    contents,
    failContent: (...answers: Failure[]) => contentFailures.push(...answers),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
};
