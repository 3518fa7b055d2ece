import { API_KEY_PREFIX } from '@switchboard/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashToken } from '../features/auth/session';
import type { Env } from './env';
import { AppError } from './errors';
import { createRequestCounts, currentWindow } from './request-counts';

/**
 * Request limits, declared in a route's config beside its access rule
 * (`config: { ...publicAccess(), ...vendorLimit(deps.env) }`) and enforced by one hook, before the
 * caller is resolved or the body read:
 * - every public route is limited per client address (`request.ip`): by its own declaration, else
 *   by PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE counted per route; `noRequestLimit()` opts out;
 * - `failuresPerAddress`: answers of 401, 403 or 404 (a wrong token or secret) one address may get
 *   per minute; after them the route answers 429 until the minute is over, before doing anything;
 * - a request with a platform API key counts for that key on every route
 *   (API_KEY_RATE_LIMIT_PER_MINUTE), and a key that is refused (401) counts as a failed attempt of
 *   the address whatever the route (FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE), so guessing keys is
 *   slowed everywhere.
 * Counts are kept by request-counts.ts (Redis when configured). A refusal is RATE_LIMIT_EXCEEDED
 * (429) with `Retry-After`, the seconds until the minute's window is over.
 */

export interface RequestLimit {
  /** Routes with the same name share their counts. */
  name: string;
  /** Requests one client address may make per minute. */
  perAddress: number;
  /** Failed attempts (answered 401, 403 or 404) one address may make per minute. */
  failuresPerAddress?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's request limit; `false`: none. */
    limit?: RequestLimit | false;
  }
}

export const requestLimit = (
  name: string,
  perAddress: number,
  options: { failuresPerAddress?: number } = {},
): { limit: RequestLimit } => ({ limit: { name, perAddress, ...options } });

/** No request limit: for `/api/health`, which load balancers poll and which costs no round trip. */
export const noRequestLimit = (): { limit: false } => ({ limit: false });

/**
 * What Twilio and Meta call (webhooks, media files): a high limit per address, counted before the
 * body is read or the signature checked. Their failures are not held against the address: a vendor
 * sends every customer's calls from the same addresses, and one agency's wrong credentials must
 * not stop the others' messages.
 */
export const vendorLimit = (env: Env) => requestLimit('vendor', env.WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE);

/** A route whose address or query carries a secret (a share link, a verify token): wrong ones are failures. */
export const secretLimit = (env: Env, name: string) =>
  requestLimit(name, env.PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE, {
    failuresPerAddress: env.FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE,
  });

/** The endpoints called with a platform API key (/mcp, /v1), per address; each key counts as well. */
export const apiLimit = (env: Env) => requestLimit('api', env.API_ADDRESS_RATE_LIMIT_PER_MINUTE);

const FAILED_STATUSES = new Set([401, 403, 404]);
const KEY_FAILURES = 'api-key';

/** The route's limit: its own, or the default of a public route. */
const limitOf = (request: FastifyRequest, env: Env): RequestLimit | null => {
  const config = request.routeOptions.config;
  if (config?.limit === false) return null;
  if (config?.limit) return config.limit;
  if (config?.access?.kind !== 'public') return null;
  return { name: request.routeOptions.url ?? 'public', perAddress: env.PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE };
};

/** A platform API key the request presents (valid or not), identified by a prefix of its hash. */
const presentedKey = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header?.startsWith(`Bearer ${API_KEY_PREFIX}`) || header.length > 200) return null;
  return hashToken(header.slice('Bearer '.length).trim()).slice(0, 24);
};

const refuse = (reply: FastifyReply, message: string, retryAfterSeconds: number): never => {
  reply.header('retry-after', String(retryAfterSeconds));
  throw new AppError('RATE_LIMIT_EXCEEDED', message);
};

/** Addresses past their failed attempts, until the minute's window is over (this process's knowledge). */
class FailureBlocks {
  private readonly until = new Map<string, number>();
  private prunedWindow = 0;

  add(name: string, address: string) {
    const now = Date.now();
    const { window, retryAfterSeconds } = currentWindow(now);
    // Every block ends with its window: those of past windows go, once per window.
    if (window !== this.prunedWindow) {
      for (const [key, end] of this.until) if (end <= now) this.until.delete(key);
      this.prunedWindow = window;
    }
    this.until.set(`${name}:${address}`, now + retryAfterSeconds * 1000);
  }

  /** Seconds the address stays refused, or 0. */
  remaining(name: string, address: string): number {
    const end = this.until.get(`${name}:${address}`) ?? 0;
    return end > Date.now() ? Math.ceil((end - Date.now()) / 1000) : 0;
  }
}

const TOO_MANY = {
  address: 'Too many requests from your address. Please wait a minute and try again.',
  key: 'Too many requests with this API key. Please wait a minute and try again.',
  failures: 'Too many failed attempts from your address. Please wait a minute and try again.',
};

/** Installs the hooks; call before the tenant guard, so a refused request costs no caller lookup. */
export const installRequestLimits = (app: FastifyInstance) => {
  const { env } = app.deps;
  const counts = createRequestCounts(app.deps);
  const blocks = new FailureBlocks();
  app.addHook('onClose', async () => counts.stop());

  const refuseBlocked = (reply: FastifyReply, name: string, address: string) => {
    const seconds = blocks.remaining(name, address);
    if (seconds > 0) refuse(reply, TOO_MANY.failures, seconds);
  };

  app.addHook('onRequest', async (request, reply) => {
    const limit = limitOf(request, env);
    const key = presentedKey(request);
    if (!limit && !key) return;
    if (limit?.failuresPerAddress) refuseBlocked(reply, limit.name, request.ip);
    if (key) refuseBlocked(reply, KEY_FAILURES, request.ip);
    const names = [...(limit ? [`a:${limit.name}:${request.ip}`] : []), ...(key ? [`k:${key}`] : [])];
    const counted = await counts.increment(names);
    const { retryAfterSeconds } = currentWindow();
    if (limit && (counted[0] ?? 0) > limit.perAddress) refuse(reply, TOO_MANY.address, retryAfterSeconds);
    if (key && (counted.at(-1) ?? 0) > env.API_KEY_RATE_LIMIT_PER_MINUTE) {
      refuse(reply, TOO_MANY.key, retryAfterSeconds);
    }
  });

  // A failed attempt is counted before it is answered, so the next one from the address is judged
  // with it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!FAILED_STATUSES.has(reply.statusCode)) return payload;
    const failures: [name: string, allowed: number][] = [];
    const limit = limitOf(request, env);
    if (limit?.failuresPerAddress) failures.push([limit.name, limit.failuresPerAddress]);
    if (reply.statusCode === 401 && presentedKey(request)) {
      failures.push([KEY_FAILURES, env.FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE]);
    }
    if (!failures.length) return payload;
    const counted = await counts.increment(failures.map(([name]) => `f:${name}:${request.ip}`));
    failures.forEach(([name, allowed], index) => {
      if ((counted[index] ?? 0) >= allowed) blocks.add(name, request.ip);
    });
    return payload;
  });
};
