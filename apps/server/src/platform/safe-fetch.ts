import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors';

/**
 * Server-side fetches of addresses users type in (SSRF-safe):
 * - only http and https, on the usual web ports unless the host is allow-listed;
 * - literal addresses (the URL parser already turns decimal, octal and hex forms into dotted
 *   IPv4) and every DNS answer must be public unicast: loopback, private, link-local (cloud
 *   metadata), carrier NAT, IPv4-mapped IPv6 of those, multicast, reserved... are refused;
 * - the socket connects to the vetted address (custom lookup), so a DNS answer cannot change
 *   between the check and the connection;
 * - every redirect hop is checked again, at most `maxRedirects` hops; time and size caps.
 */
export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD';
  maxRedirects?: number;
  timeoutMs?: number;
  /** Body bytes read at most; 0 reads only the headers. */
  maxBytes?: number;
  /** host or host:port entries fetched without the address checks (tests, trusted intranets). */
  allowHosts?: string[];
  headers?: Record<string, string>;
}

export interface SafeFetchResult {
  status: number;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const WEB_PORTS = new Set(['', '80', '443', '8080', '8443']);

export class BlockedAddressError extends AppError {
  constructor(message: string) {
    super('VALIDATION_ERROR', message, { field: 'url' });
    this.name = 'BlockedAddressError';
  }
}

/** True only for public unicast addresses (IPv4-mapped IPv6 is judged as its IPv4). */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
};

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

const isAllowListed = (url: URL, allowHosts: string[]) => {
  const host = url.hostname.toLowerCase();
  return allowHosts.includes(host) || allowHosts.includes(url.host.toLowerCase());
};

/** Checks the scheme, port and literal address of a URL; returns the parsed URL. */
export const vetUrl = (raw: string, allowHosts: string[] = []): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('Enter a full http:// or https:// address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedAddressError('Only http:// and https:// addresses can be previewed');
  }
  if (url.username || url.password) throw new BlockedAddressError('Addresses with credentials cannot be previewed');
  if (isAllowListed(url, allowHosts)) return url;
  if (!WEB_PORTS.has(url.port)) throw new BlockedAddressError('Only the standard web ports can be previewed');
  const host = stripBrackets(url.hostname);
  if (ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw new BlockedAddressError('This address is not public and cannot be previewed');
  }
  return url;
};

/** A DNS lookup that answers only public addresses, so the socket connects to a vetted one. */
const vettedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const blocked = list.find((entry) => !isPublicAddress(entry.address));
    if (blocked || list.length === 0) {
      return callback(new BlockedAddressError('This address is not public and cannot be previewed'), '', 0);
    }
    if ((options as { all?: boolean }).all) {
      return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, list);
    }
    const first = list[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
};

const requestOnce = (
  url: URL,
  options: Required<Omit<SafeFetchOptions, 'allowHosts'>>,
  signal: AbortSignal,
  trusted: boolean,
) =>
  new Promise<SafeFetchResult>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: options.method,
        headers: { 'user-agent': 'SwitchboardPreview/1.0', accept: 'text/html,*/*', ...options.headers },
        signal,
        ...(trusted ? {} : { lookup: vettedLookup }),
        maxHeaderSize: 32 * 1024,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            url: url.toString(),
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        if (options.maxBytes === 0) {
          response.destroy();
          finish();
          return;
        }
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            chunks.push(chunk.subarray(0, Math.max(0, options.maxBytes - (size - chunk.length))));
            response.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });

/** Fetches a user-given address under the rules above; throws BlockedAddressError when refused. */
export const safeFetch = async (raw: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> => {
  const settings = {
    method: options.method ?? 'GET',
    maxRedirects: options.maxRedirects ?? 3,
    timeoutMs: options.timeoutMs ?? 5000,
    maxBytes: options.maxBytes ?? 256 * 1024,
    headers: options.headers ?? {},
  };
  const allowHosts = (options.allowHosts ?? []).map((host) => host.toLowerCase());
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let url = vetUrl(raw, allowHosts);
  for (let hop = 0; ; hop += 1) {
    const result = await requestOnce(url, settings, signal, isAllowListed(url, allowHosts));
    const location = result.headers.location;
    if (result.status < 300 || result.status >= 400 || !location) return result;
    if (hop >= settings.maxRedirects) throw new BlockedAddressError('The address redirects too many times');
    url = vetUrl(new URL(location, url).toString(), allowHosts);
  }
};
