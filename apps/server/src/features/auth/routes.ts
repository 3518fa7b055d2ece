import {
  DIRECT_LOGIN_PATH,
  POST_LOGIN_PATH,
  ZCheckLinkedAccessQuery,
  ZCheckLinkedAccessResponse,
  ZCheckUserQuery,
  ZCheckUserResponse,
  ZConfirmLinkRequest,
  ZConfirmLinkResponse,
  ZDirectLoginRequest,
  ZDirectLoginResponse,
  ZMagicLinkRequest,
  ZMagicLinkResponse,
  ZOutboxList,
  ZPreRegisterRequest,
  ZPreRegisterResponse,
  ZReturnPath,
  ZSessionResponse,
} from '@switchboard/core';
import { desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devMailboxEnabled, googleEnabled } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { isOperator, publicAccess } from '../../platform/guard';
import { linkOriginOf, originOf, parseAuthority } from '../../platform/http';
import { outbox } from '../../platform/mail.schema';
import type { Mailer, SignInBrandLookup } from '../../platform/mailer';
import { requestLimit } from '../../platform/request-limits';
import { exchangeGoogleCode, GOOGLE_STATE_COOKIE, type GoogleState, googleAuthorizationUrl } from './google';
import * as service from './service';
import { clearSessionCookie, deleteSession, setSessionCookie } from './session';

const tags = ['auth'];

export const authRoutes =
  (mailer: Mailer, options: { signInBrand?: SignInBrandLookup } = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const { deps } = app;

    app.get(
      '/api/auth/session',
      { config: publicAccess(), schema: { tags, response: { 200: ZSessionResponse } } },
      async (request) => ({
        user: request.caller
          ? {
              id: request.caller.userId,
              email: request.caller.email,
              name: request.caller.name,
              image: request.caller.image,
            }
          : null,
        providers: {
          google: googleEnabled(deps.env),
          email: true,
          directLogin: deps.env.DIRECT_LOGIN_ALLOWLIST.length > 0,
        },
        isOperator: isOperator(deps, request.caller),
      }),
    );

    app.get(
      '/api/auth/signin',
      {
        config: publicAccess(),
        schema: { tags, querystring: z.object({ callbackUrl: ZReturnPath.optional() }) },
      },
      async (request, reply) => {
        const target = request.query.callbackUrl
          ? `/?signin=1&returnUrl=${encodeURIComponent(request.query.callbackUrl)}`
          : '/?signin=1';
        return reply.redirect(target);
      },
    );

    app.get(
      '/api/auth/check-user',
      {
        config: { ...publicAccess(), ...requestLimit('check-user', deps.env.CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE) },
        schema: { tags, querystring: ZCheckUserQuery, response: { 200: ZCheckUserResponse } },
      },
      async (request) => service.checkUser(deps.db, request.query.email),
    );

    app.post(
      '/api/auth/pre-register',
      {
        config: {
          ...publicAccess(),
          ...requestLimit('pre-register', deps.env.PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE),
        },
        schema: { tags, body: ZPreRegisterRequest, response: { 200: ZPreRegisterResponse } },
      },
      async (request) => ({
        success: true,
        userId: await service.preRegister(deps.db, request.body.email, request.body.emailconsent),
      }),
    );

    app.get(
      '/api/auth/check-linked-access',
      {
        config: publicAccess(),
        schema: { tags, querystring: ZCheckLinkedAccessQuery, response: { 200: ZCheckLinkedAccessResponse } },
      },
      async (request) => ({ hasLinkedAccess: await service.checkLinkedAccess(deps.db, request.query.email) }),
    );

    app.post(
      '/api/auth/sign-in/magic-link',
      {
        config: {
          ...publicAccess(),
          ...requestLimit('magic-link', deps.env.SIGNIN_ADDRESS_RATE_LIMIT_PER_MINUTE),
          rateLimit: {
            max: deps.env.SIGNIN_RATE_LIMIT_PER_MINUTE,
            timeWindow: '1 minute',
            // After the body is parsed, so the limit is counted per address.
            hook: 'preHandler',
            keyGenerator: (request) => {
              const email = (request.body as { email?: unknown } | undefined)?.email;
              return `magic-link:${typeof email === 'string' ? email.trim().toLowerCase() : request.ip}`;
            },
          },
        },
        schema: { tags, body: ZMagicLinkRequest, response: { 200: ZMagicLinkResponse } },
      },
      async (request) => {
        if (request.body.emailconsent) await service.preRegister(deps.db, request.body.email, true);
        const brand = await options.signInBrand?.({
          email: request.body.email,
          hostname: parseAuthority(request.host ?? '')?.hostname ?? null,
          slug: request.body.agency,
        });
        await service.sendMagicLink(deps, mailer, {
          email: request.body.email,
          callbackPath: request.body.callbackURL,
          origin: await linkOriginOf(request, deps.env),
          brand,
        });
        return { sent: true };
      },
    );

    app.post(
      '/api/auth/confirm',
      { config: publicAccess(), schema: { tags, body: ZConfirmLinkRequest, response: { 200: ZConfirmLinkResponse } } },
      async (request, reply) => {
        const { session, redirectUrl } = await service.confirmMagicLink(
          deps,
          request.body.token,
          request.headers['user-agent'],
        );
        setSessionCookie(reply, session.token, session.expiresAt);
        return { redirectUrl };
      },
    );

    app.post(
      '/api/auth/sign-out',
      { config: publicAccess(), schema: { tags, response: { 200: z.object({ success: z.boolean() }) } } },
      async (request, reply) => {
        if (request.caller?.sessionId) await deleteSession(deps.db, request.caller.sessionId);
        clearSessionCookie(reply);
        return { success: true };
      },
    );

    app.post(
      '/api/direct-login',
      { config: publicAccess(), schema: { tags, body: ZDirectLoginRequest, response: { 200: ZDirectLoginResponse } } },
      async (request, reply) => {
        const session = await service.directLogin(deps, request.body.email, request.headers['user-agent']);
        setSessionCookie(reply, session.token, session.expiresAt);
        return { redirectUrl: request.body.returnUrl ?? DIRECT_LOGIN_PATH };
      },
    );

    const googleCallbackUri = (origin: string) => `${origin}/api/auth/callback/google`;

    app.get(
      '/api/auth/google',
      {
        config: publicAccess(),
        schema: {
          tags,
          querystring: z.object({
            callbackURL: ZReturnPath.optional(),
            emailconsent: z.enum(['true', 'false']).optional(),
          }),
        },
      },
      async (request, reply) => {
        if (!googleEnabled(deps.env)) throw new AppError('NOT_FOUND', 'Google sign-in is not configured');
        const { url, state } = googleAuthorizationUrl(
          deps.env,
          googleCallbackUri(originOf(request, deps.env)),
          request.query.callbackURL ?? POST_LOGIN_PATH,
          request.query.emailconsent === 'true',
        );
        reply.setCookie(GOOGLE_STATE_COOKIE, JSON.stringify(state), {
          path: '/api/auth',
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
          maxAge: 600,
        });
        return reply.redirect(url);
      },
    );

    app.get(
      '/api/auth/callback/google',
      {
        config: publicAccess(),
        schema: {
          tags,
          querystring: z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional() }),
        },
      },
      async (request, reply) => {
        if (!googleEnabled(deps.env)) throw new AppError('NOT_FOUND', 'Google sign-in is not configured');
        let saved: GoogleState | undefined;
        try {
          saved = JSON.parse(request.cookies[GOOGLE_STATE_COOKIE] ?? '') as GoogleState;
        } catch {
          saved = undefined;
        }
        reply.clearCookie(GOOGLE_STATE_COOKIE, { path: '/api/auth' });
        if (!saved || !request.query.code || saved.state !== request.query.state) {
          return reply.redirect('/?signin=1&error=google');
        }
        const profile = await exchangeGoogleCode(
          deps.env,
          request.query.code,
          saved.verifier,
          googleCallbackUri(originOf(request, deps.env)),
        );
        const session = await service.signInWithGoogle(
          deps,
          { ...profile, emailConsent: saved.emailConsent },
          request.headers['user-agent'],
        );
        setSessionCookie(reply, session.token, session.expiresAt);
        return reply.redirect(saved.callbackPath);
      },
    );

    app.get(
      '/api/dev/mailbox',
      { config: publicAccess(), schema: { tags, response: { 200: ZOutboxList } } },
      async () => {
        if (!devMailboxEnabled(deps.env)) throw new AppError('NOT_FOUND', 'The dev mailbox is off');
        const rows = await deps.db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(50);
        return {
          messages: rows.map((row) => ({
            id: row.id,
            to: row.to,
            subject: row.subject,
            text: row.text,
            link: row.link,
            createdAt: row.createdAt.toISOString(),
          })),
        };
      },
    );
  };
