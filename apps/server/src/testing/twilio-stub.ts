/**
 * A local HTTP stand-in for the parts of Twilio's REST API the adapter uses, for tests: the real
 * twilio SDK talks to it through TWILIO_API_URL over a socket. It checks Basic auth like Twilio,
 * answers Twilio's error bodies, and lets a test queue failures (429 with Retry-After, 503).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

export interface StubSentMessage {
  sid: string;
  accountSid: string;
  params: Record<string, string | string[]>;
}

export interface TwilioStub {
  url: string;
  /** Accepted username → password pairs (Account SID → auth token, or API key SID → secret). */
  credentials: Map<string, string>;
  messages: StubSentMessage[];
  requests: { method: string; path: string }[];
  /** Answers the next message creations with these (status, headers, body) before succeeding again. */
  failNext(...answers: { status: number; headers?: Record<string, string>; code?: number; message?: string }[]): void;
  close(): Promise<void>;
}

export const TEST_ACCOUNT_SID = `AC${'a1'.repeat(16)}`;
export const TEST_AUTH_TOKEN = 'f'.repeat(32);

export const startTwilioStub = async (): Promise<TwilioStub> => {
  const credentials = new Map<string, string>([[TEST_ACCOUNT_SID, TEST_AUTH_TOKEN]]);
  const messages: StubSentMessage[] = [];
  const requests: TwilioStub['requests'] = [];
  const failures: { status: number; headers?: Record<string, string>; code?: number; message?: string }[] = [];

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

    const account = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\.json$/);
    if (request.method === 'GET' && account)
      return send(200, { sid: account[1], friendly_name: 'Stub account', status: 'active', type: 'Full' });

    const create = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/);
    if (request.method === 'POST' && create) {
      const form = new URLSearchParams(await readBody(request));
      const params: Record<string, string | string[]> = {};
      for (const key of new Set(form.keys())) {
        const values = form.getAll(key);
        params[key] = values.length > 1 ? values : (values[0] as string);
      }
      const failure = failures.shift();
      if (failure)
        return send(
          failure.status,
          {
            code: failure.code ?? (failure.status === 429 ? 20429 : 20500),
            message: failure.message ?? 'Stub failure',
            status: failure.status,
          },
          failure.headers,
        );
      const to = String(params.To ?? '').replace(/^whatsapp:/, '');
      if (to === '+15005550001')
        return send(400, {
          code: 21211,
          message: "The 'To' number +15005550001 is not a valid phone number.",
          status: 400,
        });
      if (!params.Body && !params.ContentSid && !params.MediaUrl)
        return send(400, { code: 21602, message: 'Message body is required.', status: 400 });
      const sid = `SM${randomBytes(16).toString('hex')}`;
      messages.push({ sid, accountSid: create[1] as string, params });
      return send(201, { sid, status: 'queued', to: params.To, from: params.From ?? null, body: params.Body ?? '' });
    }
    send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    credentials,
    messages,
    requests,
    failNext: (...answers) => failures.push(...answers),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
