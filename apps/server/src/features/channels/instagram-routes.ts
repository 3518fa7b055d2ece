import {
  ZChannelConnection,
  ZChooseInstagramPageRequest,
  ZInstagramOauthStart,
  ZInstagramOauthStartRequest,
  ZInstagramPageChoice,
  ZInstagramSetup,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { metaOauthEnabled } from '../../platform/env';
import { type SubaccountResolver, subaccountAccess, tenantOf, userAccess } from '../../platform/guard';
import { findChannel, getChannel } from './connections';
import {
  chooseInstagramPage,
  completeInstagramOauth,
  connectionOfState,
  instagramPageChoice,
  META_OAUTH_COOKIE,
  META_OAUTH_COOKIE_PATH,
  startInstagramOauth,
} from './meta-oauth';

const tags = ['channels'];
const ZConnectionParams = z.object({ connectionId: z.string().max(64) });
const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return (await findChannel(deps.db, id))?.connection.subaccountId ?? null;
};
const fromBody: SubaccountResolver = async (request) =>
  (request.body as { subaccountId?: string } | undefined)?.subaccountId;
/** The callback's sub-account is the one of the connection its state names (checked again with the state). */
const fromState: SubaccountResolver = async (request, deps) => {
  const id = connectionOfState((request.query as { state?: string }).state) ?? '';
  return (await findChannel(deps.db, id))?.connection.subaccountId ?? null;
};

/** Instagram's setup: whether Meta's OAuth is available, and its start and callback. */
export const instagramRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/channels/instagram/setup',
    { config: userAccess(), schema: { tags, response: { 200: ZInstagramSetup } } },
    async () => ({ oauthAvailable: metaOauthEnabled(deps.env), graphUrl: deps.env.META_GRAPH_URL }),
  );

  app.post(
    '/api/channels/instagram/oauth/start',
    {
      config: subaccountAccess('member', fromBody),
      schema: { tags, body: ZInstagramOauthStartRequest, response: { 200: ZInstagramOauthStart } },
    },
    async (request, reply) => {
      const started = await startInstagramOauth(deps, tenantOf(request), request.body.buildId);
      reply.setCookie(META_OAUTH_COOKIE, started.secret, {
        path: META_OAUTH_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: 600,
      });
      return { connectionId: started.connectionId, url: started.url };
    },
  );

  app.get(
    '/api/channels/instagram/oauth/callback',
    {
      config: subaccountAccess('member', fromState),
      schema: {
        tags,
        querystring: z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
          error_description: z.string().max(500).optional(),
        }),
      },
    },
    async (request, reply) => {
      const result = await completeInstagramOauth(deps, tenantOf(request).subaccountId, {
        state: request.query.state,
        code: request.query.code,
        error: request.query.error,
        errorDescription: request.query.error_description,
        cookie: request.cookies[META_OAUTH_COOKIE],
      });
      reply.clearCookie(META_OAUTH_COOKIE, { path: META_OAUTH_COOKIE_PATH });
      return reply.redirect(
        `/${result.connectionId}/link3${
          result.ok === 'choose'
            ? '?choose=instagram'
            : result.ok
              ? '?connected=instagram'
              : '?error=CONNECTION_CREATION_FAILED'
        }`,
      );
    },
  );

  app.get(
    '/api/channels/:connectionId/instagram/pages',
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, response: { 200: ZInstagramPageChoice } },
    },
    async (request) => instagramPageChoice(deps, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.post(
    '/api/channels/:connectionId/instagram/page',
    {
      config: subaccountAccess('member', fromConnection),
      schema: {
        tags,
        params: ZConnectionParams,
        body: ZChooseInstagramPageRequest,
        response: { 200: ZChannelConnection },
      },
    },
    async (request) => {
      const { subaccountId } = tenantOf(request);
      await chooseInstagramPage(deps, subaccountId, request.params.connectionId, request.body.pageId);
      return getChannel(deps, subaccountId, request.params.connectionId);
    },
  );
};
