import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { SESSION_COOKIE } from '../features/auth/session';
import { AppError } from './errors';
import { originOf, requestOrigin } from './http';

/**
 * Browser protections on every answer:
 * - security headers from helmet (worked out once at start): a Content-Security-Policy the web app, the API
 *   reference and the evaluation report work under, nosniff, a referrer policy, frame-ancestors
 *   'self' (pages that other sites frame, the widget's, send their own policy: framePolicy below);
 * - Strict-Transport-Security on answers to https requests;
 * - state-changing requests that carry the session cookie must come from this very origin
 *   (Origin / Sec-Fetch-Site), so a page on another site, or on another port of the same host
 *   (same-site), cannot act with the signed-in person's cookie;
 * - a body is JSON or an upload: `text/plain` and form posts, which a foreign page can send
 *   without asking the browser first, are refused.
 */

/** Public routes meant to be called from other sites; they never act on a session cookie. */
const CROSS_SITE_ROUTES = [
  /^\/api\/widget\//,
  /^\/api\/demo-chat(\?|$)/,
  /^\/(api\/)?stripe\/webhook(\?|$)/,
  // Providers' webhooks (Twilio posts form-encoded bodies); each checks its own signature.
  /^\/api\/webhooks\//,
];
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_TYPES = /^(application\/json|multipart\/form-data)(;|$)/i;

const SELF_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // React and the evaluation report set inline styles.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Logos and avatars are user-given https addresses or data URLs.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  // Demos show the client's website behind the widget.
  frameSrc: ["'self'", 'https:', 'http:'],
  frameAncestors: ["'self'"],
  formAction: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
  upgradeInsecureRequests: null,
};

/** A year, for this host and its subdomains, once a browser has reached it over https. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: SELF_POLICY },
  // The widget loader and its assets are loaded by other sites.
  crossOriginResourcePolicy: { policy: 'same-site' },
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets with these options, worked out once: they are the same for every
 * request, and helmet (through its Fastify plugin) builds them again from the options each time.
 */
export const securityHeaders = (options: HelmetOptions = HELMET_OPTIONS): Record<string, string> => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
};

export const installBrowserProtections = async (app: FastifyInstance) => {
  const headers = securityHeaders();
  // A plain-text body is never used; without this parser such a request answers 415.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // Only on https (directly, or from a trusted proxy's X-Forwarded-Proto): a browser ignores the
    // header on http, and a development server on http must stay reachable.
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    try {
      checkRequestOrigin(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
};

/** Refuses a cookie-authenticated state change from another origin, and non-JSON simple bodies. */
export const checkRequestOrigin = (request: FastifyRequest) => {
  if (!STATE_CHANGING.has(request.method)) return;
  const url = request.url;
  if (CROSS_SITE_ROUTES.some((pattern) => pattern.test(url))) return;
  const type = request.headers['content-type'];
  if (type !== undefined && !BODY_TYPES.test(type)) {
    throw new AppError('BAD_REQUEST', 'Unsupported content type; send application/json', { status: 415 });
  }
  if (!request.cookies?.[SESSION_COOKIE]) return;
  // Sec-Fetch-Site is set by the browser and cannot be forged by a page: same-site is refused too
  // (a form on another port of the same host).
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new AppError('FORBIDDEN', 'This request must come from the Switchboard app itself');
  }
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return;
  const own = new Set([originOf(request, request.server.deps.env), requestOrigin(request)]);
  if (!own.has(origin)) throw new AppError('FORBIDDEN', 'This request must come from the Switchboard app itself');
};

/** The `'sha256-…'` sources of the inline scripts of a page we generate. */
export const inlineScriptHashes = (html: string): string[] =>
  [...html.matchAll(/<script>([^<]*(?:<(?!\/script>)[^<]*)*)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );

/**
 * The policy of a page that other sites frame (the widget's iframe page, a demo's frame): its own
 * inline scripts by hash, and the sites that may frame it.
 */
export const framePolicy = (html: string, frameAncestors: string[]) =>
  [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'self'",
  ].join('; ');

/** Sends a framed page with its own policy (and no X-Frame-Options, which frame-ancestors replaces). */
export const sendFramedPage = (reply: FastifyReply, html: string, frameAncestors: string[]) => {
  reply.removeHeader('x-frame-options');
  reply.header('content-security-policy', framePolicy(html, frameAncestors));
  reply.header('cross-origin-resource-policy', 'cross-origin');
  return reply;
};

/** A page of this app with inline scripts of its own (the evaluation report): allowed by their hashes. */
export const sendPageWithInlineScripts = (reply: FastifyReply, html: string) =>
  reply.header('content-security-policy', framePolicy(html, ["'self'"]));

/** Served to other sites: the widget loader and the widget's assets. */
export const allowCrossOriginLoad = (reply: FastifyReply) =>
  reply.header('cross-origin-resource-policy', 'cross-origin');
