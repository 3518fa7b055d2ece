import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

/**
 * Which addresses a server-side fetch of a user-given URL may reach (SSRF guard).
 *
 * Public unicast addresses only, unless the self-hoster lists private hosts in
 * `PRIVATE_URL_ALLOWLIST`: a host name (`ollama.internal`), a `host:port`, an address or a CIDR
 * (`10.0.0.0/8`, `::1`). Literal addresses are judged after the URL parser normalised them
 * (`2130706433` and `0x7f000001` are 127.0.0.1), IPv6 that carries an IPv4 address (mapped,
 * IPv4-compatible `[::7f00:1]`, NAT64, 6to4) as that IPv4, and host names by
 * every address DNS answers; the socket then connects to an address that was vetted (the lookup
 * hook below), so a second DNS answer cannot switch it to a private one.
 */
export interface OutboundPolicy {
  /** Host names and host:port entries reached without the address checks. */
  hosts: Set<string>;
  /** Address ranges reached although they are not public. */
  ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const NO_PRIVATE_HOSTS: OutboundPolicy = { hosts: new Set(), ranges: [] };

const policies = new WeakMap<{ PRIVATE_URL_ALLOWLIST: string[] }, OutboundPolicy>();

/** The policy of a process's settings, built once. */
export const policyOf = (env: { PRIVATE_URL_ALLOWLIST: string[] }): OutboundPolicy => {
  const found = policies.get(env);
  if (found) return found;
  const created = outboundPolicy(env.PRIVATE_URL_ALLOWLIST);
  policies.set(env, created);
  return created;
};

/** Builds the policy from the entries of PRIVATE_URL_ALLOWLIST; throws naming a malformed entry. */
export const outboundPolicy = (entries: string[]): OutboundPolicy => {
  const policy: OutboundPolicy = { hosts: new Set(), ranges: [] };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const bare = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
    if (entry.includes('/')) {
      try {
        const [address, bits] = ipaddr.parseCIDR(entry);
        policy.ranges.push([address, bits]);
        if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
          policy.ranges.push([(address as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)]);
        }
      } catch {
        throw new Error(`PRIVATE_URL_ALLOWLIST: "${raw}" is not a valid CIDR`);
      }
    } else if (ipaddr.isValid(bare)) {
      const address = ipaddr.process(bare);
      policy.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else {
      policy.hosts.add(entry);
    }
  }
  return policy;
};

export class BlockedAddressError extends AppError {
  constructor(message: string, field = 'url') {
    super('VALIDATION_ERROR', message, { field });
    this.name = 'BlockedAddressError';
  }
}

/**
 * IPv6 ranges that carry an IPv4 address, with where it sits: the packet reaches that IPv4 host,
 * so the address is judged as it. `::a.b.c.d` (IPv4-compatible, deprecated but still routed by
 * some stacks to the IPv4 host), NAT64's well-known prefix and the IPv4-translated form keep it in
 * the last 32 bits; 6to4 in bits 16 to 48. (IPv4-mapped `::ffff:a.b.c.d` is ipaddr's `process`.)
 */
const IPV4_CARRIERS: { range: [ipaddr.IPv6, number]; firstByte: number }[] = [
  { range: [ipaddr.IPv6.parse('::'), 96], firstByte: 12 },
  { range: [ipaddr.IPv6.parse('64:ff9b::'), 96], firstByte: 12 },
  { range: [ipaddr.IPv6.parse('::ffff:0:0:0'), 96], firstByte: 12 },
  { range: [ipaddr.IPv6.parse('2002::'), 16], firstByte: 2 },
];

/** The address a connection really reaches: the IPv4 an IPv6 address carries, when it carries one. */
export const effectiveAddress = (address: string): ipaddr.IPv4 | ipaddr.IPv6 => {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed;
  const ipv6 = parsed as ipaddr.IPv6;
  // `::` and `::1` are themselves (unspecified, loopback), not IPv4 0.0.0.0 and 0.0.0.1.
  if (ipv6.range() === 'unspecified' || ipv6.range() === 'loopback') return ipv6;
  const carrier = IPV4_CARRIERS.find(({ range: [range, bits] }) => ipv6.match(range, bits));
  if (!carrier) return ipv6;
  const bytes = ipv6.toByteArray().slice(carrier.firstByte, carrier.firstByte + 4);
  return ipaddr.fromByteArray(bytes) as ipaddr.IPv4;
};

/** True only for public unicast addresses; an IPv6 address carrying an IPv4 one is judged as it. */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  return effectiveAddress(address).range() === 'unicast';
};

/** A public address, or a private one inside a listed range. */
export const isAllowedAddress = (policy: OutboundPolicy, address: string): boolean => {
  if (isPublicAddress(address)) return true;
  if (!ipaddr.isValid(address)) return false;
  const candidates = [ipaddr.process(address), effectiveAddress(address)];
  return policy.ranges.some(([range, bits]) =>
    candidates.some((parsed) => range.kind() === parsed.kind() && parsed.match(range, bits)),
  );
};

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** The URL's host is listed by name (with or without its port): its addresses are not checked. */
export const isListedHost = (policy: OutboundPolicy, url: URL): boolean =>
  policy.hosts.has(url.hostname.toLowerCase()) || policy.hosts.has(url.host.toLowerCase());

const WEB_PORTS = new Set(['', '80', '443', '8080', '8443']);

export interface VetOptions {
  /** The request field the URL came from, named in the 422. */
  field?: string;
  /** Only the usual web ports (previews of websites); other fetches may use any port. */
  webPortsOnly?: boolean;
}

const NOT_PUBLIC = 'This address is not public and cannot be reached';

/** Checks the scheme, credentials, port and literal address of a URL; returns the parsed URL. */
export const vetUrl = (raw: string | URL, policy: OutboundPolicy, options: VetOptions = {}): URL => {
  const field = options.field ?? 'url';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('Enter a full http:// or https:// address', field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedAddressError('Only http:// and https:// addresses can be reached', field);
  }
  if (url.username || url.password) {
    throw new BlockedAddressError('Addresses with a user name or password cannot be reached', field);
  }
  if (isListedHost(policy, url)) return url;
  const literal = stripBrackets(url.hostname);
  // An address the self-hoster listed is reached on any port, like a listed host.
  if (ipaddr.isValid(literal) && !isPublicAddress(literal) && isAllowedAddress(policy, literal)) return url;
  if (options.webPortsOnly && !WEB_PORTS.has(url.port)) {
    throw new BlockedAddressError('Only the standard web ports can be reached', field);
  }
  const host = stripBrackets(url.hostname);
  if (ipaddr.isValid(host) && !isAllowedAddress(policy, host)) throw new BlockedAddressError(NOT_PUBLIC, field);
  return url;
};

/** A DNS lookup that answers only allowed addresses, so the socket connects to a vetted one. */
export const vettedLookup =
  (policy: OutboundPolicy, field = 'url'): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isAllowedAddress(policy, entry.address))) {
        return callback(new BlockedAddressError(NOT_PUBLIC, field), '', 0);
      }
      if ((options as { all?: boolean }).all) {
        return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, list);
      }
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };

/**
 * Vets a URL the way a fetch will, DNS included, without fetching it: used when a URL is saved
 * (a provider's base URL) so the 422 comes at once, naming the field.
 */
export const vetUrlResolved = async (
  raw: string | URL,
  policy: OutboundPolicy,
  options: VetOptions = {},
): Promise<URL> => {
  const url = vetUrl(raw, policy, options);
  const host = stripBrackets(url.hostname);
  if (isListedHost(policy, url) || ipaddr.isValid(host)) return url;
  await new Promise<void>((resolve, reject) => {
    vettedLookup(policy, options.field)(host, { all: true }, (error) => {
      if (!error) return resolve();
      if (error instanceof BlockedAddressError) return reject(error);
      reject(new BlockedAddressError(`The host ${host} could not be found`, options.field ?? 'url'));
    });
  });
  return url;
};
