import type { IncomingHttpHeaders } from 'node:http';
import { createOutboundFetch } from './fetch';
import { BlockedAddressError, type OutboundPolicy, vetUrl } from './policy';

/**
 * Fetches a user-given web page (website checks, knowledge imports): the outbound rules of
 * policy.ts on every redirect hop, at most `maxRedirects` hops, the usual web ports only, and
 * time and size caps.
 */
export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD';
  maxRedirects?: number;
  timeoutMs?: number;
  /** Body bytes read at most; 0 reads only the headers. */
  maxBytes?: number;
  headers?: Record<string, string>;
  /** The request field the URL came from, named when it is refused. */
  field?: string;
}

export interface SafeFetchResult {
  status: number;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const fetchers = new WeakMap<OutboundPolicy, Map<string, typeof fetch>>();

const fetcherFor = (policy: OutboundPolicy, field: string, maxBytes: number): typeof fetch => {
  const byOptions = fetchers.get(policy) ?? new Map<string, typeof fetch>();
  fetchers.set(policy, byOptions);
  const key = `${field}:${maxBytes}`;
  const found = byOptions.get(key);
  if (found) return found;
  const created = createOutboundFetch({ policy, field, maxResponseBytes: maxBytes });
  byOptions.set(key, created);
  return created;
};

export const safeFetch = async (
  raw: string,
  policy: OutboundPolicy,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResult> => {
  const field = options.field ?? 'url';
  const maxRedirects = options.maxRedirects ?? 3;
  const outboundFetch = fetcherFor(policy, field, options.maxBytes ?? 256 * 1024);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 5000);
  let url = vetUrl(raw, policy, { field, webPortsOnly: true });
  for (let hop = 0; ; hop += 1) {
    const response = await outboundFetch(url, {
      method: options.method ?? 'GET',
      headers: { 'user-agent': 'SwitchboardPreview/1.0', accept: 'text/html,*/*', ...options.headers },
      signal,
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      return {
        status: response.status,
        url: url.toString(),
        headers: Object.fromEntries(response.headers),
        body: Buffer.from(await response.arrayBuffer()),
      };
    }
    if (hop >= maxRedirects) throw new BlockedAddressError('The address redirects too many times', field);
    url = vetUrl(new URL(location, url), policy, { field, webPortsOnly: true });
  }
};
