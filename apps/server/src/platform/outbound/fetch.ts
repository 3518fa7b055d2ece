import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { isListedHost, type OutboundPolicy, policyOf, vettedLookup, vetUrl } from './policy';

/**
 * The one way the server fetches a URL: a `fetch` over Node's http client with keep-alive
 * connections (a fraction of the CPU of the built-in fetch for the small JSON and event-stream
 * exchanges of model calls and tools).
 *
 * Given a policy, the URL is user-given and vetted: its literal address is checked before the
 * request and its DNS answers inside the connection (the lookup hook), so the socket connects to
 * the vetted address. Without a policy the URL is the operator's own (an environment setting)
 * and is trusted. Redirects are not followed and no compression is asked for.
 */
export interface OutboundFetchOptions {
  /** null: the URL comes from the operator's configuration and is not checked. */
  policy: OutboundPolicy | null;
  /** The request field named when an address is refused (`baseUrl`, `url`). */
  field?: string;
  /** Body bytes kept at most; the rest of a longer answer is dropped (0 keeps only the headers). */
  maxResponseBytes?: number;
}

type Agents = { 'http:': http.Agent; 'https:': https.Agent };

const agentsFor = (options: OutboundFetchOptions, guarded: boolean): Agents => {
  const lookup = options.policy && guarded ? vettedLookup(options.policy, options.field) : undefined;
  const settings = { keepAlive: true, maxSockets: 512, ...(lookup ? { lookup } : {}) };
  return { 'http:': new http.Agent(settings), 'https:': new https.Agent(settings) };
};

/** Response headers as the Response constructor takes them: a record, or pairs when a header repeats. */
const headersOf = (incoming: http.IncomingHttpHeaders): Record<string, string> | [string, string][] => {
  const record: Record<string, string> = {};
  const repeated: [string, string][] = [];
  for (const name in incoming) {
    const value = incoming[name];
    if (typeof value === 'string') record[name] = value;
    else if (value) for (const one of value) repeated.push([name, one]);
  }
  return repeated.length ? [...Object.entries(record), ...repeated] : record;
};

/** Request headers given as a plain object of strings (what the model providers pass) are used as they are. */
const isPlainHeaders = (headers: unknown): headers is Record<string, string> =>
  headers !== null &&
  typeof headers === 'object' &&
  Object.getPrototypeOf(headers) === Object.prototype &&
  Object.values(headers).every((value) => typeof value === 'string');

/** Method, headers and body of a fetch call, whatever form it was given in. */
const normalise = async (input: Parameters<typeof fetch>[0], init: RequestInit) => {
  const simple =
    (typeof input === 'string' || input instanceof URL) &&
    (init.body === undefined || init.body === null || typeof init.body === 'string');
  if (simple) {
    return {
      url: new URL(input as string | URL),
      method: init.method ?? 'GET',
      headers: isPlainHeaders(init.headers) ? init.headers : Object.fromEntries(new Headers(init.headers)),
      body: (init.body ?? undefined) as string | undefined,
      signal: init.signal ?? undefined,
    };
  }
  // A Request, a form or a binary body: let the platform serialise it (content type included).
  const request = new Request(input, init);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return {
    url: new URL(request.url),
    method: request.method,
    headers: Object.fromEntries(request.headers),
    body,
    signal: init.signal ?? request.signal,
  };
};

/** Drops the rest of an answer and closes its connection; an error that follows has nobody to tell. */
const discard = (body: Readable) => {
  body.on('error', () => {});
  body.destroy();
};

/**
 * An event stream's body as a web stream, each chunk passed on as it arrives (Readable.toWeb
 * costs several times as much per chunk on Node 20). Reading pauses while the reader is 16
 * chunks behind; a reader that stops closes the connection.
 */
const eventStreamOf = (body: Readable): ReadableStream<Uint8Array> => {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) body.pause();
        });
        body.once('end', () => {
          if (open) controller.close();
          open = false;
        });
        body.once('error', (error) => {
          if (open) controller.error(error);
          open = false;
        });
      },
      pull() {
        body.resume();
      },
      cancel() {
        open = false;
        discard(body);
      },
    },
    { highWaterMark: 16 },
  );
};

/** A request as the server sends it: the URL, method, plain headers and a body already serialised. */
export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}

/**
 * Sends a request and answers the response as Node gives it, once its headers have arrived; the
 * caller reads its body (or destroys it). The same vetting and connections as the fetch it belongs to.
 */
export type SendOutbound = (input: string | URL, request: OutboundRequest) => Promise<http.IncomingMessage>;

/** The sender behind each fetch this module made: callers that parse the body themselves skip the Response. */
const senders = new WeakMap<typeof fetch, SendOutbound>();

/** The raw sender of a fetch made by createOutboundFetch (null for any other fetch). */
export const outboundSenderOf = (fetcher: typeof fetch | undefined): SendOutbound | null =>
  (fetcher && senders.get(fetcher)) ?? null;

/** How a request on a kept-alive connection the server had closed fails. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

export const createOutboundFetch = (options: OutboundFetchOptions): typeof fetch => {
  const guarded = agentsFor(options, true);
  const listed = options.policy ? agentsFor(options, false) : guarded;
  const limit = options.maxResponseBytes ?? Number.POSITIVE_INFINITY;
  const send: SendOutbound = async (input, call) => {
    const url = options.policy
      ? vetUrl(new URL(input), options.policy, { field: options.field })
      : input instanceof URL
        ? input
        : new URL(input);
    const protocol = url.protocol as keyof Agents;
    const agents = options.policy && isListedHost(options.policy, url) ? listed : guarded;
    const attempt = (retried: boolean) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = (protocol === 'https:' ? https : http).request(
          url,
          { method: call.method, headers: call.headers, agent: agents[protocol], signal: call.signal },
          resolve,
        );
        request.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive connection the server closed while it was idle fails as soon as it is
          // used, before any answer: the request never reached the server, so it goes again once
          // on a new connection (as Node's documentation advises for `reusedSocket`).
          if (!retried && request.reusedSocket && STALE_CONNECTION.has(error.code ?? '') && !call.signal?.aborted) {
            attempt(true).then(resolve, reject);
            return;
          }
          reject(error);
        });
        request.end(call.body);
      });
    return attempt(false);
  };
  const fetcher: typeof fetch = async (input, init = {}) => {
    const call = await normalise(input, init);
    const response = await send(call.url, call);
    const responseInit = {
      status: response.statusCode ?? 502,
      statusText: response.statusMessage,
      headers: headersOf(response.headers),
    };
    const empty = responseInit.status === 204 || responseInit.status === 304 || call.method === 'HEAD';
    if (!empty && String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
      return new Response(eventStreamOf(response), responseInit);
    }
    if (empty) {
      // Nothing to read: the connection stays open for the next request.
      response.resume();
      return new Response(null, responseInit);
    }
    if (limit === 0) {
      discard(response);
      return new Response(null, responseInit);
    }
    return new Promise<Response>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => resolve(new Response(Buffer.concat(chunks), responseInit));
      response.on('data', (chunk: Buffer) => {
        if (size + chunk.length >= limit) {
          chunks.push(chunk.subarray(0, limit - size));
          discard(response);
          finish();
          return;
        }
        size += chunk.length;
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', finish);
    });
  };
  senders.set(fetcher, send);
  return fetcher;
};

const operatorFetch = createOutboundFetch({ policy: null });
const userFetches = new WeakMap<OutboundPolicy, typeof fetch>();

/**
 * The fetch of a model provider: a base URL the user saved is vetted (a refusal names `baseUrl`);
 * the providers' default addresses come from the operator's settings and are trusted.
 */
export const providerFetchFor = (
  env: { PRIVATE_URL_ALLOWLIST: string[] },
  userBaseUrl: string | null,
): typeof fetch => {
  if (!userBaseUrl) return operatorFetch;
  const policy = policyOf(env);
  const found = userFetches.get(policy);
  if (found) return found;
  const created = createOutboundFetch({ policy, field: 'baseUrl' });
  userFetches.set(policy, created);
  return created;
};
