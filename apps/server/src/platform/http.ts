import type { ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Env } from './env';
import { AppError } from './errors';

export interface Authority {
  /** Lower-cased host name, IPv4 address, or IPv6 address in brackets. */
  hostname: string;
  port: number | null;
}

/** A host name, an IPv4 address or a bracketed IPv6 address, then an optional port: nothing else. */
const AUTHORITY = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9_.-]{1,253})(?::(\d{1,5}))?$/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

/**
 * A Host header (or X-Forwarded-Host) read as an authority: null for userinfo
 * (`localhost:@evil.example`), a path, an empty or out-of-range port, or a malformed host, so
 * that nothing but a parsed host and port ever reaches a link.
 */
export const parseAuthority = (value: string): Authority | null => {
  const match = AUTHORITY.exec(value.toLowerCase());
  if (!match) return null;
  const [, hostname = '', portText] = match;
  if (hostname.startsWith('[')) {
    if (!isIPv6(hostname.slice(1, -1))) return null;
  } else if (hostname.length > 253 || !hostname.split('.').every((label) => label.length <= 63 && LABEL.test(label))) {
    return null;
  }
  if (portText === undefined) return { hostname, port: null };
  const port = Number(portText);
  return port >= 1 && port <= 65535 ? { hostname, port } : null;
};

const authorityText = ({ hostname, port }: Authority) => (port === null ? hostname : `${hostname}:${port}`);

/** The request's own origin, rebuilt from its parsed Host; null when the Host is not an authority. */
export const requestOrigin = (request: FastifyRequest): string | null => {
  const authority = parseAuthority(request.host ?? '');
  return authority ? `${request.protocol}://${authorityText(authority)}` : null;
};

/**
 * Refuses a request whose Host (or trusted X-Forwarded-Host) is not a plain authority with 400,
 * as HTTP requires, before any route could copy it into a link or compare it with an Origin.
 */
export const installHostCheck = (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    if (request.host && !parseAuthority(request.host)) {
      throw new AppError('BAD_REQUEST', 'The Host header is not a valid host name and port', { status: 400 });
    }
  });
};

/** Loopback host names and addresses: a link to them reaches only the person's own machine. */
const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
  hostname === '[::1]';

/** The origin used when no request is at hand, or when a request's Host may not choose one. */
export const defaultOrigin = (env: Env): string => env.PUBLIC_URL?.replace(/\/$/, '') ?? `http://localhost:${env.PORT}`;

/**
 * The public origin for links (sign-in links, invitations, checkout returns, embed codes).
 * PUBLIC_URL when set: a request's Host header never chooses it. Without PUBLIC_URL (development
 * only; production refuses to start), the request's origin is used when its host is loopback or
 * listed in DEV_ALLOWED_HOSTS, so a forged Host cannot put another site into an emailed link.
 */
export const originOf = (request: FastifyRequest, env: Env): string => {
  if (env.PUBLIC_URL) return defaultOrigin(env);
  const authority = parseAuthority(request.host ?? '');
  if (authority && (isLoopbackHost(authority.hostname) || env.DEV_ALLOWED_HOSTS.includes(authority.hostname))) {
    return `${request.protocol}://${authorityText(authority)}`;
  }
  return defaultOrigin(env);
};

/** The origin of an agency's verified custom domain for a host name, or null (features/domains). */
export type VerifiedOriginLookup = (hostname: string) => Promise<string | null>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the app when custom domains are served; null: every link uses originOf. */
    verifiedOrigin: VerifiedOriginLookup | null;
  }
}

/**
 * The origin of a link a person follows back to the portal (a sign-in link, an invitation):
 * `https://{hostname}` when the request's Host is an agency's verified custom domain, so the
 * session cookie (host-only) is set where the person works; otherwise originOf. A Host that is
 * not a verified mapping never chooses the origin.
 */
export const linkOriginOf = async (request: FastifyRequest, env: Env): Promise<string> => {
  const authority = parseAuthority(request.host ?? '');
  const lookup = request.server.verifiedOrigin;
  if (authority && lookup && !authority.hostname.startsWith('[')) {
    const verified = await lookup(authority.hostname);
    if (verified) return verified;
  }
  return originOf(request, env);
};

/**
 * Writes to a response and sends it now. Node holds a response's writes until the end of the
 * current tick (it corks the socket, so one tick's writes leave in one go); for a streamed answer
 * that is the rest of the model's chunk parsed and the reply stored, and the first token would
 * wait for all of it. Later events are left to Node's grouping.
 */
export const writeAtOnce = (raw: ServerResponse, text: string) => {
  const socket = raw.socket;
  const corked = socket?.writableCorked ?? 0;
  raw.write(text);
  if (socket && socket.writableCorked > corked) socket.uncork();
};
