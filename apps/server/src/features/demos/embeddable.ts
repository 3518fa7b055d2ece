import type { IncomingHttpHeaders } from 'node:http';
import type { TCheckEmbeddableResponse } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { BlockedAddressError, policyOf, safeFetch } from '../../platform/outbound';

const headerValues = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Does a CSP source expression (from frame-ancestors) allow the framing origin? */
const sourceAllows = (source: string, framer: URL): boolean => {
  const value = source.toLowerCase();
  if (value === '*') return true;
  if (value === "'none'" || value === "'self'") return false;
  if (value === 'https:' || value === 'http:') return framer.protocol === value;
  const match = /^(?:(https?):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?/.exec(value);
  if (!match) return false;
  const [, scheme, wildcard, host = '', port] = match;
  if (scheme && `${scheme}:` !== framer.protocol) return false;
  const framerHost = framer.hostname.toLowerCase();
  const hostOk = wildcard ? framerHost.endsWith(`.${host}`) : framerHost === host;
  if (!hostOk) return false;
  if (!port || port === '*') return true;
  const framerPort = framer.port || (framer.protocol === 'https:' ? '443' : '80');
  return port === framerPort;
};

/**
 * Decides from a response's headers whether a page on `framerOrigin` may show it in a frame:
 * CSP frame-ancestors wins when present (as in browsers); otherwise X-Frame-Options DENY,
 * SAMEORIGIN (the site is never our origin) and ALLOW-FROM refuse.
 */
export const isEmbeddable = (status: number, headers: IncomingHttpHeaders, framerOrigin: string): boolean => {
  if (status >= 400) return false;
  const framer = new URL(framerOrigin);
  const policies = headerValues(headers['content-security-policy']).flatMap((value) => value.split(','));
  let sawFrameAncestors = false;
  for (const policy of policies) {
    const directive = policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.toLowerCase().startsWith('frame-ancestors'));
    if (!directive) continue;
    sawFrameAncestors = true;
    const sources = directive.split(/\s+/).slice(1);
    if (!sources.some((source) => sourceAllows(source, framer))) return false;
  }
  if (sawFrameAncestors) return true;
  const frameOptions = headerValues(headers['x-frame-options']).join(',').trim().toLowerCase();
  return frameOptions === '';
};

/** POST /api/check-embeddable: fetches the site (SSRF-safe) and reads its framing headers. */
export const checkEmbeddable = async (
  deps: Deps,
  url: string,
  framerOrigin: string,
): Promise<TCheckEmbeddableResponse> => {
  try {
    const result = await safeFetch(url, policyOf(deps.env), {
      maxBytes: 0,
      maxRedirects: 3,
      timeoutMs: deps.env.CHECK_EMBEDDABLE_TIMEOUT_MS,
    });
    const embeddable = isEmbeddable(result.status, result.headers, framerOrigin);
    return embeddable ? { embeddable } : { embeddable, reason: 'The website does not allow being shown in a frame' };
  } catch (error) {
    if (error instanceof BlockedAddressError) throw error;
    deps.log.info({ err: error, url }, 'check-embeddable could not reach the site');
    return { embeddable: false, reason: 'The website could not be reached' };
  }
};
