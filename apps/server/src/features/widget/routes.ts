import { ZWidgetChatRequest, ZWidgetChatResponse, ZWidgetConversations } from '@switchboard/core';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allowCrossOriginLoad, sendFramedPage } from '../../platform/browser-protections';
import { AppError } from '../../platform/errors';
import { publicAccess } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { streamSlot } from '../../platform/stream-slots';
import { isConnectionPaused, PAUSED_MESSAGE } from '../connections/pauses';
import { appBundle, framePage, gzipCached, loaderScript } from './assets';
import { admitChat, runChat, WIDGET_ERRORS } from './chat';
import { frameAncestorsOf, isOriginAllowed } from './domains';
import { getLiveWidget } from './live-config';
import { openSse } from './sse';
import { listVisitorConversations, visitorMessages, visitorThread } from './visitor-threads';

const tags = ['widget'];
const ZWidgetParams = z.object({ widgetId: z.string().max(64) });
const ZContactQuery = z.object({ contactIdentifier: z.string().trim().min(1).max(120) });
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, accept, x-widget-host',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-max-age': '600',
};

/** The public side of the widget: script, iframe page, chat, the visitor's conversations and live replies. */
export const widgetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  /** The site a request comes from: its Origin, or for our own iframe the host page it reports. */
  const siteOf = (request: {
    headers: Record<string, string | string[] | undefined>;
    protocol: string;
    host: string;
  }) => {
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : null;
    const own = `${request.protocol}://${request.host}`;
    const reported = typeof request.headers['x-widget-host'] === 'string' ? request.headers['x-widget-host'] : null;
    if (origin && origin !== own && origin !== deps.env.PUBLIC_URL?.replace(/\/$/, '')) return origin;
    return reported || null;
  };

  /** The origin of the page that asked for the loader (browsers send at least the origin). */
  const refererOrigin = (referer: string | undefined): string | null => {
    if (!referer) return null;
    try {
      return new URL(referer).origin;
    } catch {
      return null;
    }
  };

  const liveOr404 = async (widgetId: string) => {
    const widget = await getLiveWidget(deps, widgetId);
    if (!widget) throw new AppError('CONNECTION_NOT_FOUND', WIDGET_ERRORS.notFound);
    return widget;
  };

  /** Generated text, gzipped when the browser accepts it. */
  const sendText = (
    request: { headers: Record<string, string | string[] | undefined> },
    reply: FastifyReply,
    text: string,
  ) => {
    reply.header('vary', 'accept-encoding');
    if (!String(request.headers['accept-encoding'] ?? '').includes('gzip')) return reply.send(text);
    return reply.header('content-encoding', 'gzip').send(gzipCached(text));
  };

  /** The chat app of the iframe page, versioned by its hash (?v=), so browsers keep it for good. */
  app.get('/widget/app.js', { schema: { hide: true } }, async (request, reply) => {
    const { app: code, appGzip } = appBundle(deps.env);
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('access-control-allow-origin', '*')
      .header('vary', 'accept-encoding');
    if (String(request.headers['accept-encoding'] ?? '').includes('gzip'))
      return reply.header('content-encoding', 'gzip').send(appGzip);
    return code;
  });

  for (const name of ['widget.js', 'widget-professional.js']) {
    app.get(
      `/widget/:widgetId/${name}`,
      { schema: { tags, params: ZWidgetParams, hide: true } },
      async (request, reply) => {
        const widget = await getLiveWidget(deps, request.params.widgetId);
        reply
          .header('access-control-allow-origin', '*')
          .header('timing-allow-origin', '*')
          .header('cache-control', 'no-cache')
          .type('text/javascript; charset=utf-8');
        if (!widget)
          return reply.status(404).send(`console.warn(${JSON.stringify(`Switchboard: ${WIDGET_ERRORS.notFound}`)});`);
        // A channel paused in Launch shows no launcher (its chat would answer CONNECTION_INACTIVE).
        if (await isConnectionPaused(deps, widget.connectionId))
          return reply.status(409).send(`console.warn(${JSON.stringify(`Switchboard: ${PAUSED_MESSAGE}`)});`);
        allowCrossOriginLoad(reply);
        // A site the widget does not allow gets no launcher (its frame would be refused anyway); a
        // page that sends no referrer gets it, and the frame's frame-ancestors decides.
        const site = refererOrigin(request.headers.referer);
        if (site && !isOriginAllowed(widget.settings.allowedDomains, site)) {
          reply.header('vary', 'referer');
          return reply.send(`console.warn(${JSON.stringify(`Switchboard: ${WIDGET_ERRORS.domain}`)});`);
        }
        return sendText(request, reply, loaderScript(deps.env, widget, originOf(request, deps.env)));
      },
    );
  }

  app.get(
    '/widget/:widgetId',
    {
      schema: {
        tags,
        params: ZWidgetParams,
        querystring: z.object({ mode: z.enum(['loader', 'inline']).optional() }),
        hide: true,
      },
    },
    async (request, reply) => {
      const widget = await getLiveWidget(deps, request.params.widgetId);
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
      if (!widget)
        return reply
          .status(404)
          .send(`<!doctype html><title>${WIDGET_ERRORS.notFound}</title><p>${WIDGET_ERRORS.notFound}</p>`);
      if (await isConnectionPaused(deps, widget.connectionId))
        return reply.status(409).send(`<!doctype html><title>Chat paused</title><p>${PAUSED_MESSAGE}</p>`);
      const page = framePage(deps.env, widget, request.query.mode ?? 'inline');
      sendFramedPage(reply, page, frameAncestorsOf(widget.settings.allowedDomains));
      return sendText(request, reply, page);
    },
  );

  app.options('/api/widget/*', { config: publicAccess(), schema: { hide: true } }, async (_request, reply) =>
    reply.headers(CORS).status(204).send(),
  );

  app.post(
    '/api/widget/:widgetId/chat',
    {
      // Streamed or not, a chat holds a stream slot while the agent answers.
      config: { ...publicAccess(), ...streamSlot() },
      schema: { tags, params: ZWidgetParams, body: ZWidgetChatRequest, response: { 200: ZWidgetChatResponse } },
    },
    async (request, reply) => {
      reply.headers(CORS);
      const widget = await admitChat(deps, request.params.widgetId, request.body, {
        siteOrigin: siteOf(request),
        ip: request.ip,
      });
      const wantsStream = (request.headers.accept ?? '').includes('text/event-stream');
      if (!wantsStream) return runChat(deps, widget, request.body);
      const abort = new AbortController();
      const stream = openSse(request, reply, { headers: CORS, onClose: () => abort.abort() });
      try {
        const result = await runChat(deps, widget, request.body, {
          onDelta: (text) => stream.send('delta', { text }),
          signal: abort.signal,
        });
        stream.send('done', result);
      } catch (error) {
        const appError = error instanceof AppError ? error : null;
        if (!appError) request.log.error({ err: error }, 'widget chat failed');
        stream.send('error', {
          status: appError?.status ?? 500,
          error: {
            code: appError?.code ?? 'INTERNAL_SERVER_ERROR',
            message: appError?.message ?? 'Something went wrong on our side.',
          },
        });
      }
      stream.close();
      return reply;
    },
  );

  app.get(
    '/api/widget/:widgetId/conversations',
    {
      config: publicAccess(),
      schema: { tags, params: ZWidgetParams, querystring: ZContactQuery, response: { 200: ZWidgetConversations } },
    },
    async (request, reply) => {
      reply.headers(CORS).header('cache-control', 'no-store');
      const widget = await liveOr404(request.params.widgetId);
      if (!isOriginAllowed(widget.settings.allowedDomains, siteOf(request)))
        throw new AppError('FORBIDDEN', WIDGET_ERRORS.domain);
      return { conversations: await listVisitorConversations(deps, widget, request.query.contactIdentifier) };
    },
  );

  app.get(
    '/api/widget/:widgetId/threads/:threadId/messages',
    {
      config: publicAccess(),
      schema: { tags, params: ZWidgetParams.extend({ threadId: z.string().max(64) }), querystring: ZContactQuery },
    },
    async (request, reply) => {
      reply.headers(CORS).header('cache-control', 'no-store');
      const widget = await liveOr404(request.params.widgetId);
      return visitorMessages(deps, widget, request.params.threadId, request.query.contactIdentifier);
    },
  );

  /** Live messages a person sends in the inbox while they handle the visitor's thread. */
  app.get(
    '/api/widget/:widgetId/threads/:threadId/events',
    {
      config: { ...publicAccess(), ...streamSlot() },
      schema: { tags, params: ZWidgetParams.extend({ threadId: z.string().max(64) }), querystring: ZContactQuery },
    },
    async (request, reply) => {
      const widget = await liveOr404(request.params.widgetId);
      const thread = await visitorThread(deps, widget, request.params.threadId, request.query.contactIdentifier);
      let unsubscribe = () => {};
      const stream = openSse(request, reply, { headers: CORS, onClose: () => unsubscribe() });
      unsubscribe = deps.bus.subscribe(`thread:${thread.id}`, (payload) => {
        const message = (payload as { message?: { id: string; role: string; content: string; createdAt: string } })
          .message;
        if (message?.role === 'human') stream.send('message', message);
      });
      return reply;
    },
  );
};
