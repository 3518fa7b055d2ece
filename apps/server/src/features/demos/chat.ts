import { DEMO_HISTORY_MAX, DEMO_MESSAGES, type TDemoChatRequest, type TDemoChatResponse } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { answerVisitor } from '../connections/visitor-gate';
import { replyAsAgent } from '../conversations/reply';
import { findThread } from '../conversations/repo';
import * as repo from './repo';

/**
 * POST /api/demo-chat: anyone with a demo's link chats with its agent. One request of the
 * demo's allowance is reserved before the reply (atomically, so concurrent visitors cannot pass
 * the limit) and given back when no answer is delivered.
 */
export const demoChat = async (deps: Deps, input: TDemoChatRequest): Promise<TDemoChatResponse> => {
  if (!input.demoId) {
    throw new AppError('BUILD_INVALID_CONFIG', DEMO_MESSAGES.missingConfig, { field: 'demoId' });
  }
  const demo = await repo.findDemo(deps.db, input.demoId);
  if (!demo) throw new AppError('NOT_FOUND', DEMO_MESSAGES.notFound);
  if (!demo.buildId) throw new AppError('BUILD_INVALID_CONFIG', DEMO_MESSAGES.missingConfig);

  // A thread id continues a conversation only when it is one of this demo's threads.
  let threadId: string | null = null;
  if (input.threadId) {
    const thread = await findThread(deps.db, demo.subaccountId, input.threadId);
    if (thread && thread.channel === 'demo' && thread.channelRef === demo.id) threadId = thread.id;
  }

  const history = (input.history ?? input.messages ?? [])
    .map((entry) => ({ role: entry.role, content: entry.content.trim() }))
    .filter((entry) => entry.content.length > 0)
    .slice(-DEMO_HISTORY_MAX);

  const reserved = await repo.reserveRequest(deps.db, demo.id);
  if (!reserved) throw new AppError('RATE_LIMIT_EXCEEDED', DEMO_MESSAGES.limitReached);

  let reply: Awaited<ReturnType<typeof replyAsAgent>>;
  try {
    // The one gate of public channels (locked sub-account, allowance, credits in visitors' words).
    reply = await answerVisitor(deps, { accountId: demo.accountId, subaccountId: demo.subaccountId }, () =>
      replyAsAgent(deps, {
        agentId: demo.buildId as string,
        accountId: demo.accountId,
        subaccountId: demo.subaccountId,
        threadId,
        message: input.message,
        channel: 'demo',
        channelRef: demo.id,
        history,
      }),
    );
  } catch (error) {
    await repo.releaseRequest(deps.db, demo.id);
    if (error instanceof AppError) {
      if (error.code === 'AGENT_NOT_FOUND') throw new AppError('BUILD_INVALID_CONFIG', DEMO_MESSAGES.missingConfig);
      if (error.code === 'AI_EMPTY_RESPONSE') throw new AppError('AI_EMPTY_RESPONSE', DEMO_MESSAGES.empty);
      throw error;
    }
    deps.log.error({ err: error, demoId: demo.id }, 'demo chat failed');
    throw new AppError('AI_SERVICE_ERROR', DEMO_MESSAGES.failed);
  }

  const message = reply.message.trim();
  if (!message && !reply.humanHandled) {
    await repo.releaseRequest(deps.db, demo.id);
    throw new AppError('AI_EMPTY_RESPONSE', DEMO_MESSAGES.empty);
  }
  if (reply.humanHandled) await repo.releaseRequest(deps.db, demo.id);
  const count = reply.humanHandled ? reserved.requestCount - 1 : reserved.requestCount;
  return {
    message,
    response: message,
    threadId: reply.threadId,
    thread_id: reply.threadId,
    requestCount: count,
    requestLimit: reserved.requestLimit,
    offline: reply.offline,
    humanHandled: reply.humanHandled,
  };
};
