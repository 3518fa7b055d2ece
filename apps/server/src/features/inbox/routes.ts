import {
  ZHumanReplyRequest,
  ZInboxThreadList,
  ZInboxTranscript,
  ZPageQuery,
  ZTakeoverRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { streamSlot } from '../../platform/stream-slots';
import { findConnection } from '../connections/repo';
import { openSse } from '../widget/sse';
import * as repo from './repo';
import * as service from './service';

const tags = ['inbox'];
const ZParams = z.object({ connectionId: z.string().max(64) });
const ZThreadParams = ZParams.extend({ threadId: z.string().max(64) });
const fromConnection: SubaccountResolver = async (request, deps) =>
  (await findConnection(deps.db, (request.params as { connectionId?: string }).connectionId ?? ''))?.subaccountId ??
  null;

/** The conversations inbox of a widget: live list, transcripts, take-over and a person's replies. */
export const inboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const base = '/api/connections/:connectionId/conversations';

  app.get(
    base,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'read' }),
      schema: { tags, params: ZParams, querystring: ZPageQuery, response: { 200: ZInboxThreadList } },
    },
    async (request) =>
      service.listThreads(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.query.page,
        request.query.limit,
      ),
  );

  /** Server-sent events: `thread` whenever a conversation of this widget changes (new message or take-over). */
  app.get(
    `${base}/events`,
    {
      config: { ...subaccountAccess('viewer', fromConnection, { client: 'read' }), ...streamSlot() },
      schema: { tags, params: ZParams },
    },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      const connection = await service.widgetOf(deps, subaccountId, request.params.connectionId);
      const refs = new Map<string, string | null>();
      let unsubscribe = () => {};
      const stream = openSse(request, reply, { onClose: () => unsubscribe() });
      unsubscribe = deps.bus.subscribe(`subaccount:${subaccountId}:conversations`, (payload) => {
        const event = payload as { threadId?: string; message?: unknown; handledByUserId?: string | null };
        if (!event.threadId) return;
        const threadId = event.threadId;
        const known = refs.get(threadId);
        const forward = (ref: string | null) => {
          if (ref === connection.widgetId) stream.send('thread', event);
        };
        if (known !== undefined) return forward(known);
        void repo.channelRefOf(deps.db, threadId).then((ref) => {
          if (refs.size > 5000) refs.clear();
          refs.set(threadId, ref);
          forward(ref);
        });
      });
      return reply;
    },
  );

  app.get(
    `${base}/:threadId`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'read' }),
      schema: { tags, params: ZThreadParams, response: { 200: ZInboxTranscript } },
    },
    async (request) =>
      service.transcript(deps, tenantOf(request).subaccountId, request.params.connectionId, request.params.threadId),
  );

  app.post(
    `${base}/:threadId/takeover`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'inbox' }),
      schema: { tags, params: ZThreadParams, body: ZTakeoverRequest, response: { 200: ZInboxTranscript } },
    },
    async (request) =>
      service.setTakeover(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.params.threadId,
        callerOf(request).userId,
        request.body.takeOver,
      ),
  );

  app.post(
    `${base}/:threadId/messages`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'inbox' }),
      schema: { tags, params: ZThreadParams, body: ZHumanReplyRequest, response: { 200: ZInboxTranscript } },
    },
    async (request) =>
      service.sendHumanReply(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.params.threadId,
        callerOf(request).userId,
        request.body.content,
        request.body.mediaUrls,
      ),
  );
};
