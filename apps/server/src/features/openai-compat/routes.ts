import { unsupportedChatParameters, ZChatCompletionRequest } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors';
import { fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { apiLimit } from '../../platform/request-limits';
import { streamSlot } from '../../platform/stream-slots';
import { listAgents } from '../agents/repo';
import { replyAsAgent } from '../conversations/reply';
import { lazySse } from '../conversations/sse';
import { readChatRequest } from './messages';

/**
 * The OpenAI-compatible API: any OpenAI client calls an agent with `model` set to the agent id,
 * authenticated by a platform API key (Authorization: Bearer sk_sb_...). The agent's prompt,
 * knowledge and tools apply; each call is stored as a conversation on the 'api' channel. Send the
 * header X-Thread-Id (answered on every reply) to continue a stored conversation.
 */

const tags = ['openai-compatible'];

const created = () => Math.floor(Date.now() / 1000);

export const openAiCompatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/v1/models',
    { config: { ...subaccountAccess('viewer', fromCurrentSubaccount()), ...apiLimit(deps.env) }, schema: { tags } },
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
    {
      // A call, streamed or not, holds a stream slot while the agent answers.
      config: { ...subaccountAccess('member', fromCurrentSubaccount()), ...apiLimit(deps.env), ...streamSlot() },
      schema: { tags, body: ZChatCompletionRequest },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const body = request.body;
      const unsupported = unsupportedChatParameters(body as Record<string, unknown>);
      if (unsupported.length) {
        throw new AppError('VALIDATION_ERROR', `Not supported by this API: ${unsupported.join(', ')}`, {
          field: unsupported[0]?.split(' ')[0],
          status: 400,
        });
      }
      const read = await readChatRequest(body);
      const threadHeader = request.headers['x-thread-id'];
      const base = {
        agentId: body.model,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        threadId: typeof threadHeader === 'string' ? threadHeader : null,
        message: read.message,
        channel: 'api' as const,
        contactIdentifier: body.user ?? null,
        history: read.history,
        caller: read.caller,
      };
      const id = `chatcmpl-${Date.now().toString(36)}`;
      const usageOf = (result: { usage: { inputTokens: number; outputTokens: number } }) => ({
        prompt_tokens: result.usage.inputTokens,
        completion_tokens: result.usage.outputTokens,
        total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      });
      const toolCallsOf = (calls: { id: string; name: string; input: unknown }[]) =>
        calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
        }));
      if (!body.stream) {
        const result = await replyAsAgent(deps, base);
        reply.header('x-thread-id', result.threadId);
        const calls = result.pendingToolCalls;
        return {
          id,
          object: 'chat.completion',
          created: created(),
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: result.message || null,
                ...(calls.length ? { tool_calls: toolCallsOf(calls) } : {}),
              },
              finish_reason: calls.length ? 'tool_calls' : 'stop',
            },
          ],
          usage: usageOf(result),
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
        const calls = result.pendingToolCalls;
        if (first && result.message) write(chunk({ role: 'assistant', content: result.message }));
        if (calls.length) {
          write(
            chunk({
              ...(first && !result.message ? { role: 'assistant', content: null } : {}),
              tool_calls: toolCallsOf(calls).map((call, index) => ({ index, ...call })),
            }),
          );
        }
        write({
          ...chunk({}, calls.length ? 'tool_calls' : 'stop'),
          switchboard: { threadId: result.threadId, offline: result.offline },
        });
        if (body.stream_options?.include_usage) {
          write({ ...chunk({}), choices: [], usage: usageOf(result) });
        }
        sse.sendRaw('data: [DONE]\n\n');
        sse.end();
      } catch (error) {
        sse.fail(error);
      }
      return reply;
    },
  );
};
