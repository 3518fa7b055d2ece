import {
  ZAgentChatRequest,
  ZMessageView,
  ZOpenRouterChatRequest,
  ZOpenRouterChatResponse,
  ZPageQuery,
  ZRunPromptRequest,
  ZRunPromptResponse,
  ZThreadView,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { streamSlot } from '../../platform/stream-slots';
import { findAgent } from '../agents/repo';
import { fromAgentParam } from '../agents/routes';
import { replyAsAgent } from './reply';
import { getThreadWithMessages, listThreads } from './repo';
import { threads } from './schema';
import { lazySse } from './sse';

const tags = ['conversations'];

/** The sub-account of the agent named in the JSON body (field `key`). */
const fromBodyAgent =
  (key: string): SubaccountResolver =>
  async (request, deps) => {
    const id = (request.body as Record<string, unknown> | undefined)?.[key];
    if (typeof id !== 'string' || !id || id.length > 64) return undefined;
    const agent = await findAgent(deps.db, id);
    if (!agent) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
    return agent.subaccountId;
  };

const fromThreadParam = (): SubaccountResolver => async (request, deps) => {
  const id = (request.params as { threadId?: string }).threadId ?? '';
  const rows = await deps.db.select({ subaccountId: threads.subaccountId }).from(threads).where(eq(threads.id, id));
  if (!rows[0]) throw new AppError('THREAD_NOT_FOUND', 'The conversation does not exist or was deleted.');
  return rows[0].subaccountId;
};

export const conversationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  /** The test chat of the agent page: the reply streams as server-sent events. */
  app.post(
    '/api/agents/:agentId/chat',
    {
      config: { ...subaccountAccess('member', fromAgentParam(), { client: 'editAgents' }), ...streamSlot() },
      schema: { tags, params: z.object({ agentId: z.string().max(64) }), body: ZAgentChatRequest },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const sse = lazySse(request, reply);
      try {
        const result = await replyAsAgent(deps, {
          agentId: request.params.agentId,
          accountId: tenant.accountId,
          subaccountId: tenant.subaccountId,
          threadId: request.body.threadId,
          message: request.body.message,
          channel: 'test',
          onDelta: (text) => sse.send('delta', { text }),
          signal: sse.signal,
        });
        sse.send('done', result);
        sse.end();
      } catch (error) {
        sse.fail(error);
      }
      return reply;
    },
  );

  app.get(
    '/api/agents/:agentId/threads',
    {
      config: subaccountAccess('viewer', fromAgentParam(), { client: 'read' }),
      schema: {
        tags,
        params: z.object({ agentId: z.string().max(64) }),
        querystring: ZPageQuery,
        response: {
          200: z.object({ items: z.array(ZThreadView), total: z.number(), page: z.number(), limit: z.number() }),
        },
      },
    },
    async (request) =>
      listThreads(deps.db, {
        subaccountId: tenantOf(request).subaccountId,
        agentId: request.params.agentId,
        page: request.query.page,
        limit: request.query.limit,
      }),
  );

  app.get(
    '/api/threads/:threadId',
    {
      config: subaccountAccess('viewer', fromThreadParam(), { client: 'read' }),
      schema: {
        tags,
        params: z.object({ threadId: z.string().max(64) }),
        response: { 200: z.object({ thread: ZThreadView, messages: z.array(ZMessageView) }) },
      },
    },
    async (request) => {
      const found = await getThreadWithMessages(deps.db, tenantOf(request).subaccountId, request.params.threadId);
      if (!found) throw new AppError('THREAD_NOT_FOUND', 'The conversation does not exist or was deleted.');
      return found;
    },
  );

  app.post(
    '/api/openai/run-prompt',
    {
      config: subaccountAccess('member', fromBodyAgent('assistantId')),
      schema: { tags, body: ZRunPromptRequest, response: { 200: ZRunPromptResponse } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const result = await replyAsAgent(deps, {
        agentId: request.body.assistantId,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        threadId: request.body.threadId,
        message: request.body.message,
        channel: 'test',
      });
      return { message: result.message, threadId: result.threadId, offline: result.offline };
    },
  );

  app.post(
    '/api/openrouter/chat',
    {
      config: subaccountAccess('member', fromBodyAgent('build_id')),
      schema: { tags, body: ZOpenRouterChatRequest, response: { 200: ZOpenRouterChatResponse } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const history = request.body.messages?.filter((entry) => entry.content.trim()) ?? undefined;
      const result = await replyAsAgent(deps, {
        agentId: request.body.build_id,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        threadId: request.body.thread_id,
        message: request.body.message,
        channel: 'api',
        history: history?.length ? history : undefined,
      });
      return {
        message: result.message,
        response: result.message,
        content: result.message,
        threadId: result.threadId,
        thread_id: result.threadId,
        offline: result.offline,
      };
    },
  );
};
