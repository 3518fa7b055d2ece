import type { ServerResponse } from 'node:http';
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
