import type { FastifyRequest } from 'fastify';
import type { Env } from './env';

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
  const hostname = request.hostname.toLowerCase();
  if (isLoopbackHost(hostname) || env.DEV_ALLOWED_HOSTS.includes(hostname)) {
    return `${request.protocol}://${request.host}`;
  }
  return defaultOrigin(env);
};
