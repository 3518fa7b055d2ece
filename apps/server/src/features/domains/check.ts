/**
 * The two checks of a custom domain. Over HTTP: the platform's own verification path fetched from
 * the domain, through the outbound policy (public addresses only, DNS vetted inside the connection,
 * a short time limit, a small body, redirects only on the same host). Over DNS: the TXT record
 * `_switchboard.{hostname}` read with the system resolver.
 */
import { resolveTxt } from 'node:dns/promises';
import { DOMAIN_TXT_PREFIX, DOMAIN_VERIFICATION_PATH } from '@switchboard/core';
import {
  BlockedAddressError,
  createOutboundFetch,
  type OutboundPolicy,
  policyOf,
  vetUrl,
} from '../../platform/outbound';

export interface CheckResult {
  ok: boolean;
  /** What the check found, in words shown to the agency. */
  message: string;
}

const TIMEOUT_MS = 5000;
const MAX_BYTES = 1024;
const MAX_HOPS = 2;

const fetchers = new WeakMap<OutboundPolicy, typeof fetch>();
const fetcherFor = (policy: OutboundPolicy) => {
  const found = fetchers.get(policy);
  if (found) return found;
  const created = createOutboundFetch({ policy, field: 'hostname', maxResponseBytes: MAX_BYTES });
  fetchers.set(policy, created);
  return created;
};

/** The URL the HTTP check fetches (the port is the operator's setting: 80 in production). */
export const verificationUrl = (hostname: string, port: number) =>
  `http://${hostname}${port === 80 ? '' : `:${port}`}${DOMAIN_VERIFICATION_PATH}`;

const errorCode = (error: unknown): string | undefined => {
  const own = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof own === 'string' ? own : typeof cause === 'string' ? cause : undefined;
};

/** Why a fetch failed, for the agency: blocked, not found in DNS, no answer in time, refused. */
const fetchFailure = (hostname: string, error: unknown): CheckResult => {
  const blocked =
    error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError;
  if (blocked) {
    return { ok: false, message: `${hostname} points to an address that is not public, so it cannot be checked.` };
  }
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
    return {
      ok: false,
      message: `${hostname} was not found in DNS. Point it at the platform with a CNAME record first.`,
    };
  }
  if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') {
    return { ok: false, message: `${hostname} did not answer within ${TIMEOUT_MS / 1000} seconds.` };
  }
  return { ok: false, message: `${hostname} could not be reached (${code ?? 'connection failed'}).` };
};

export const checkOverHttp = async (
  env: { PRIVATE_URL_ALLOWLIST: string[]; DOMAIN_VERIFICATION_PORT: number },
  hostname: string,
  token: string,
): Promise<CheckResult> => {
  const policy = policyOf(env);
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let url: URL;
  try {
    url = vetUrl(verificationUrl(hostname, env.DOMAIN_VERIFICATION_PORT), policy, { field: 'hostname' });
  } catch (error) {
    return fetchFailure(hostname, error);
  }
  for (let hop = 0; ; hop += 1) {
    let response: Response;
    try {
      response = await fetcherFor(policy)(url, { headers: { 'user-agent': 'SwitchboardDomainCheck/1.0' }, signal });
    } catch (error) {
      return fetchFailure(hostname, error);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.hostname !== hostname) {
        return { ok: false, message: `${url} redirects to another host (${next.hostname}); it must answer itself.` };
      }
      if (hop >= MAX_HOPS) return { ok: false, message: `${url} redirects too many times.` };
      try {
        url = vetUrl(next, policy, { field: 'hostname' });
      } catch (error) {
        return fetchFailure(hostname, error);
      }
      continue;
    }
    if (response.status !== 200) {
      return {
        ok: false,
        message: `${url} answered HTTP ${response.status}. Make sure ${hostname} points at the platform.`,
      };
    }
    const body = (await response.text()).trim();
    if (body !== token) {
      return {
        ok: false,
        message: `${url} answered a different token: ${hostname} points at another server, or another account claims it (use DNS verification).`,
      };
    }
    return { ok: true, message: `${url} answered the token.` };
  }
};

export const txtNameOf = (hostname: string) => `${DOMAIN_TXT_PREFIX}.${hostname}`;

export const checkOverDns = async (hostname: string, token: string): Promise<CheckResult> => {
  const name = txtNameOf(hostname);
  let records: string[][];
  try {
    records = await Promise.race([
      resolveTxt(name),
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })), TIMEOUT_MS).unref(),
      ),
    ]);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTFOUND' || code === 'ENODATA') {
      return {
        ok: false,
        message: `No TXT record ${name} was found yet. DNS changes can take a while to appear; try again later, or ask the operator to confirm it.`,
      };
    }
    return {
      ok: false,
      message: `The TXT record ${name} could not be read (${code ?? 'lookup failed'}); try again later, or ask the operator to confirm it.`,
    };
  }
  if (records.some((parts) => parts.join('') === token))
    return { ok: true, message: `The TXT record ${name} holds the token.` };
  return { ok: false, message: `The TXT record ${name} holds another value; it must be exactly the token shown.` };
};
