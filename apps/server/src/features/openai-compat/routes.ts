import { ZChatCompletionRequest } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors';
import { fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { listAgents } from '../agents/repo';
import { replyAsAgent } from '../conversations/reply';
import { lazySse } from '../conversations/sse';

/**
 * The OpenAI-compatible API: any OpenAI client calls an agent with `model` set to the agent id,
 * authenticated by a platform API key (Authorization: Bearer sk_sb_...). The agent's prompt,
 * knowledge and tools apply; each call is stored as a conversation on the 'api' channel. Send the
 * header X-Thread-Id (answered on every reply) to continue a stored conversation.
 */

const tags = ['openai-compatible'];

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join('');
  }
  return '';
};

const created = () => Math.floor(Date.now() / 1000);

export const openAiCompatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/v1/models',
    { config: subaccountAccess('viewer', fromCurrentSubaccount()), schema: { tags } },
    async (request) => {
      const { items } = await listAgents(deps.db, tenantOf(request).subaccountId, 1, 100);
      return {
        object: 'list',
        data: items.map((agent) => ({
          id: agent.id,
          object: 'model',
          created: Math.floor(agent.createdAt.getTime() / 1000),
          owned_by: 'switchboard',
          name: agent.name,
        })),
      };
    },
  );

  app.post(
    '/v1/chat/completions',
    { config: subaccountAccess('member', fromCurrentSubaccount()), schema: { tags, body: ZChatCompletionRequest } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const body = request.body;
      const conversation = body.messages
        .filter((message) => message.role === 'user' || message.role === 'assistant')
        .map((message) => ({ role: message.role as 'user' | 'assistant', content: textOf(message.content) }))
        .filter((message) => message.content.trim());
      const last = conversation[conversation.length - 1];
      if (last?.role !== 'user') {
        throw new AppError('VALIDATION_ERROR', 'The last message must be a user message', { field: 'messages' });
      }
      const threadHeader = request.headers['x-thread-id'];
      const base = {
        agentId: body.model,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        threadId: typeof threadHeader === 'string' ? threadHeader : null,
        message: last.content,
        channel: 'api' as const,
        contactIdentifier: body.user ?? null,
        history: conversation,
      };
      const id = `chatcmpl-${Date.now().toString(36)}`;
      if (!body.stream) {
        const result = await replyAsAgent(deps, base);
        reply.header('x-thread-id', result.threadId);
        return {
          id,
          object: 'chat.completion',
          created: created(),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: result.message }, finish_reason: 'stop' }],
          usage: null,
          switchboard: {
            threadId: result.threadId,
            offline: result.offline,
            sources: result.sources,
            toolCalls: result.toolCalls,
          },
        };
      }
      const sse = lazySse(request, reply);
      const chunk = (delta: object, finish: string | null = null) => ({
        id,
        object: 'chat.completion.chunk',
        created: created(),
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      const write = (data: unknown) => sse.sendData(data);
      let first = true;
      try {
        const result = await replyAsAgent(deps, {
          ...base,
          signal: sse.signal,
          onDelta: (text) => {
            write(chunk(first ? { role: 'assistant', content: text } : { content: text }));
            first = false;
          },
        });
        if (first) write(chunk({ role: 'assistant', content: result.message }));
        write({ ...chunk({}, 'stop'), switchboard: { threadId: result.threadId, offline: result.offline } });
        sse.sendRaw('data: [DONE]\n\n');
        sse.end();
      } catch (error) {
        sse.fail(error);
      }
      return reply;
    },
  );
};
