import type { JSONSchema7 } from '@ai-sdk/provider';
import { isToolNotCalled, originOfChannel, stricterOrigin, type TChannel, type TOrigin } from '@switchboard/core';
import type { ModelMessage, ToolChoice, ToolSet } from 'ai';
import { type Deps, embeddedDatabase } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId, newKey } from '../../platform/ids';
import { buildAppTools } from '../agents/app-tools';
import { findAgentCached } from '../agents/cache';
import { buildAgentTools, mergeToolSets } from '../agents/tools';
import { retrieveForAgent } from '../knowledge/retrieve';
import { runModel } from '../llm/gateway';
import { composeSystemPrompt } from '../llm/prompt-format';
import { recentMessages } from './history';
import { findThreadForReply, nextMessageTime, storeMessage } from './repo';
import type { MessageToolCall } from './schema';

/**
 * An agent's reply on any channel: answers with the agent's prompt, knowledge and tools through
 * the LLM gateway, then stores the user message and the reply (and a new conversation's thread)
 * in one write. A thread a person has taken over gets no model reply.
 */

export interface ReplyInput {
  agentId: string;
  accountId: string;
  subaccountId: string;
  threadId?: string | null;
  message: string;
  channel: TChannel;
  channelRef?: string | null;
  contactIdentifier?: string | null;
  history?: { role: 'user' | 'assistant'; content: string }[];
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  /** Never fall back to the offline model (evaluation runs): without a key the reply fails with no_api_key. */
  strict?: boolean;
  /** What an API caller adds to the agent (OpenAI-compatible API); every field is honoured. */
  caller?: CallerOptions;
  /**
   * Where the turn comes from, when the caller knows more than its channel says (an evaluation
   * run). The turn's origin is the stricter of this and its channel's: never live for a test.
   */
  origin?: TOrigin;
  /**
   * Excerpts merged into this turn's retrieval only (an evaluation run's planted document); never
   * stored in the agent's knowledge. Real chats never pass it.
   */
  plantedKnowledge?: { documentId: string; name: string; excerpt: string }[];
}

export interface CallerOptions {
  /** System or developer messages of the caller, added after the agent's own instructions. */
  instructions?: string;
  /** The caller's conversation with tool calls and results, in the AI SDK's form. */
  modelMessages?: ModelMessage[];
  /** The caller's own tools (no execute): their calls are returned to the caller. */
  tools?: ToolSet;
  toolChoice?: ToolChoice<ToolSet>;
  json?: { schema?: JSONSchema7; name?: string };
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  stopSequences?: string[];
  /** False when the turn continues after the caller's tool results: no new user message is stored. */
  storeUserMessage?: boolean;
}

export interface ReplyResult {
  threadId: string;
  message: string;
  sources: { documentId: string; name: string; excerpt: string }[];
  toolCalls: MessageToolCall[];
  offline: boolean;
  humanHandled: boolean;
  /** The stored assistant message id ('' when a person handles the thread). */
  messageId: string;
  model: string;
  /** Credits the model call cost (0 when a person handles the thread). */
  credits: number;
  usage: { inputTokens: number; outputTokens: number };
  pendingToolCalls: { id: string; name: string; input: unknown }[];
  /** The turn's origin, for what the caller does next with the reply (a channel send refuses a test's). */
  origin: TOrigin;
}

/** Messages of history sent to the model at most. */
const HISTORY_LIMIT = 20;
const EXCERPT_CHARS = 600;

export async function replyAsAgent(deps: Deps, input: ReplyInput): Promise<ReplyResult> {
  const message = input.message.trim();
  if (!message) throw new AppError('VALIDATION_ERROR', 'Type a message', { field: 'message' });
  const agent = await findAgentCached(deps.db, input.agentId);
  if (!agent || agent.subaccountId !== input.subaccountId) {
    throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
  }
  const origin = stricterOrigin(input.origin ?? 'live', originOfChannel(input.channel));

  // A known thread is looked up (its handler is cached: 2 s on PostgreSQL, for the conversation on
  // PGlite, repo.ts); a new one is created with its first message.
  const [existing, found] = await Promise.all([
    input.threadId
      ? findThreadForReply(deps.db, input.subaccountId, input.threadId, { embedded: embeddedDatabase(deps) })
      : null,
    retrieveForAgent(deps, agent, message, deps.env.KNOWLEDGE_MAX_CHUNKS),
  ]);
  // An unknown or foreign thread id starts a new conversation (THREAD_INVALID's advice).
  const known = existing && existing.agentId === agent.id ? existing : null;
  const thread = known ?? { id: newId('thread'), handledByUserId: null };
  const caller = input.caller;
  const storeUser = caller?.storeUserMessage !== false || !known;
  /**
   * The user message, with the time it came in. It is stored together with the reply, in one
   * write, or alone when there is no reply to store (a person handles the thread, the call
   * failed or was cancelled, the caller's tools are to run): it is in the thread before the reply.
   */
  const userMessage = storeUser
    ? {
        id: newId('message'),
        subaccountId: input.subaccountId,
        threadId: thread.id,
        role: 'user' as const,
        content: message,
        createdAt: nextMessageTime(),
        newThread: known
          ? undefined
          : {
              subaccountId: input.subaccountId,
              agentId: agent.id,
              channel: input.channel,
              channelRef: input.channelRef,
              contactIdentifier: input.contactIdentifier,
            },
        origin,
      }
    : null;
  const storeUserAlone = async () => {
    if (userMessage) await storeMessage(deps, userMessage);
  };

  if (thread.handledByUserId) {
    await storeUserAlone();
    return {
      threadId: thread.id,
      message: '',
      sources: [],
      toolCalls: [],
      offline: false,
      humanHandled: true,
      messageId: '',
      model: '',
      credits: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      pendingToolCalls: [],
      origin,
    };
  }

  let history: { role: 'user' | 'assistant'; content: string }[];
  if (input.history?.length) {
    history = input.history.filter((entry) => entry.content.trim()).slice(-HISTORY_LIMIT);
    const last = history[history.length - 1];
    if (last?.role !== 'user' || last.content.trim() !== message) history.push({ role: 'user', content: message });
  } else {
    const rows = known
      ? (await recentMessages(deps.db, thread.id, HISTORY_LIMIT, { embedded: embeddedDatabase(deps) })).slice(
          -(HISTORY_LIMIT - 1),
        )
      : [];
    history = rows.map((row) => ({ role: row.role === 'user' ? 'user' : 'assistant', content: row.content }));
    history.push({ role: 'user', content: message });
  }

  const retrieved = input.plantedKnowledge?.length
    ? [...input.plantedKnowledge.map((item) => ({ ...item, score: Number.POSITIVE_INFINITY })), ...found]
    : found;
  const sources = retrieved.map((item) => ({
    documentId: item.documentId,
    name: item.name,
    excerpt: item.excerpt.length > EXCERPT_CHARS ? `${item.excerpt.slice(0, EXCERPT_CHARS - 3)}...` : item.excerpt,
  }));
  const system = composeSystemPrompt({
    instructions: caller?.instructions
      ? `${agent.systemPrompt}\n\nInstructions from the API caller:\n${caller.instructions}`
      : agent.systemPrompt,
    firstMessage: agent.firstMessage,
    knowledge: retrieved,
  });

  let result: Awaited<ReturnType<typeof runModel>>;
  try {
    result = await runModel(deps, {
      accountId: input.accountId,
      subaccountId: input.subaccountId,
      choice: { provider: agent.provider, model: agent.model },
      system,
      messages: history,
      temperature: caller?.temperature ?? agent.temperature,
      maxTokens: caller?.maxTokens ?? agent.maxTokens,
      settings: {
        topP: caller?.topP ?? agent.topP,
        frequencyPenalty: caller?.frequencyPenalty ?? agent.frequencyPenalty,
        presencePenalty: caller?.presencePenalty ?? agent.presencePenalty,
        stopSequences: caller?.stopSequences ?? agent.stopSequences,
      },
      tools: withCallerTools(
        mergeToolSets(
          await buildAgentTools(deps, agent.tools, origin),
          await buildAppTools(deps, agent.subaccountId, agent.enabledTools, { origin }),
        ),
        caller?.tools,
      ),
      modelMessages: caller?.modelMessages,
      toolChoice: caller?.toolChoice,
      json: caller?.json,
      source: `chat:${input.channel}`,
      agentId: agent.id,
      channel: input.channel,
      idempotencyKey: `reply:${thread.id}:${newKey(9)}`,
      onDelta: input.onDelta,
      signal: input.signal,
      strict: input.strict,
    });
  } catch (error) {
    await storeUserAlone();
    throw error;
  }
  const text = result.text.trim();
  const usage = { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens };
  const toolCalls = result.toolCalls.map(markNotCalled);
  if (!text && result.pendingToolCalls.length) {
    // The caller runs its own tools and sends their results back; the answer is stored then.
    await storeUserAlone();
    return {
      threadId: thread.id,
      message: '',
      sources,
      toolCalls,
      offline: result.offline,
      humanHandled: false,
      messageId: '',
      model: result.model,
      credits: result.usage.credits,
      usage,
      pendingToolCalls: result.pendingToolCalls,
      origin,
    };
  }
  if (!text) {
    await storeUserAlone();
    throw new AppError('AI_EMPTY_RESPONSE', 'The AI service returned an empty answer.');
  }

  // Both messages are handed to the writer at once, so they are written by one statement.
  const [, stored] = await Promise.all([
    storeUserAlone(),
    storeMessage(deps, {
      subaccountId: input.subaccountId,
      threadId: thread.id,
      role: 'assistant',
      content: text,
      sources,
      toolCalls,
      model: result.model,
      offline: result.offline,
      origin,
    }),
  ]);
  return {
    threadId: thread.id,
    message: text,
    sources,
    toolCalls,
    offline: result.offline,
    humanHandled: false,
    messageId: stored.id,
    model: result.model,
    credits: result.usage.credits,
    usage,
    pendingToolCalls: result.pendingToolCalls,
    origin,
  };
}

/** A call a test recorded without making it is marked, so every screen says it was not called. */
const markNotCalled = (call: MessageToolCall): MessageToolCall =>
  isToolNotCalled(call.output) ? { ...call, notCalled: true } : call;

/** The agent's HTTP tools and an API caller's own tools together (the agent's win a name clash). */
const withCallerTools = (agentTools: ToolSet | undefined, callerTools: ToolSet | undefined) =>
  callerTools ? { ...callerTools, ...(agentTools ?? {}) } : agentTools;
