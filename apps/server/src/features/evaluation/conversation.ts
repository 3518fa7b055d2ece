import { type TJudgeVerdict, type TTranscriptMessage, ZJudgeVerdict } from '@switchboard/core';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { replyAsAgent } from '../conversations/reply';
import { type ModelChoice, runModel } from '../llm/gateway';
import { judgePrompt, judgeSystem, rewordSystem, simulatedUserSystem } from './prompts';

export interface RunContext {
  deps: Deps;
  runId: string;
  accountId: string;
  subaccountId: string;
  testing: ModelChoice;
  initialMessage: string;
  userDescription: string;
  conversationFlow: string;
  hallucinationInstruction: string;
  /** The agent under test: a Switchboard agent, or a model with a prompt (chat completion type). */
  target:
    | { kind: 'agent'; agentId: string }
    | {
        kind: 'model';
        choice: ModelChoice;
        system: string;
        temperature: number;
        maxTokens: number;
      };
  maxRetries: number;
  signal: AbortSignal;
}

export interface WorkItem {
  questionKey: string;
  category: 'custom' | 'compliance' | 'promptHacking';
  position: number;
  variation: number;
  question: string;
  successCriteria: string;
  whenToAsk: number;
}

/** Whether any call of a conversation reached a real provider (false: all answered by the offline model). */
export interface CallTracker {
  online: boolean;
}

export interface ConversationOutcome {
  /** Every call was answered by the offline model (in-process, no I/O to wait for). */
  offline: boolean;
  question: string;
  transcript: TTranscriptMessage[];
  answer: string;
  verdict: TJudgeVerdict;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const isRateLimited = (error: unknown) =>
  error instanceof AppError
    ? error.code === 'RATE_LIMIT_EXCEEDED' || error.status === 429
    : error instanceof Error && /rate.?limit|429/i.test(error.message);

/** Retries a model call while the provider answers with a rate limit (exponential backoff with jitter). */
export const withRetry = async <T>(ctx: RunContext, call: () => Promise<T>): Promise<T> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isRateLimited(error) || attempt >= ctx.maxRetries || ctx.signal.aborted) throw error;
      const delay = Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random());
      await sleep(delay, ctx.signal);
    }
  }
};

const flip = (transcript: TTranscriptMessage[]) =>
  transcript.map((message) => ({
    role: message.role === 'user' ? ('assistant' as const) : ('user' as const),
    content: message.content,
  }));

/** Reworded question for a variation; variation 0 is the question as written. */
const questionFor = async (ctx: RunContext, item: WorkItem, track: CallTracker): Promise<string> => {
  if (item.variation === 0) return item.question;
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: ctx.testing,
      system: rewordSystem(item.variation),
      messages: [{ role: 'user', content: item.question }],
      schema: z.object({ question: z.string() }),
      source: 'evaluation.variation',
      signal: ctx.signal,
    }),
  );
  if (!result.offline) track.online = true;
  const reworded = (result.object as { question?: string } | undefined)?.question?.trim();
  return reworded || result.text.trim() || item.question;
};

/** The agent under test answers the last user message. */
const agentReply = async (
  ctx: RunContext,
  transcript: TTranscriptMessage[],
  state: { threadId: string | null },
  track: CallTracker,
) => {
  const last = transcript.at(-1)?.content ?? '';
  if (ctx.target.kind === 'agent') {
    const target = ctx.target;
    const reply = await withRetry(ctx, () =>
      replyAsAgent(ctx.deps, {
        agentId: target.agentId,
        accountId: ctx.accountId,
        subaccountId: ctx.subaccountId,
        threadId: state.threadId,
        message: last,
        channel: 'evaluation',
        channelRef: ctx.runId,
        signal: ctx.signal,
      }),
    );
    state.threadId = reply.threadId;
    if (!reply.offline) track.online = true;
    return reply.message;
  }
  const target = ctx.target;
  // The opening greeting is the agent's own line; providers want the history to start with the user.
  const firstUser = transcript.findIndex((message) => message.role === 'user');
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: target.choice,
      system: [target.system, ctx.initialMessage ? `You opened the conversation with: "${ctx.initialMessage}"` : '']
        .filter(Boolean)
        .join('\n\n'),
      messages: transcript.slice(Math.max(0, firstUser)),
      temperature: target.temperature,
      maxTokens: target.maxTokens,
      source: 'evaluation.agent',
      signal: ctx.signal,
    }),
  );
  if (!result.offline) track.online = true;
  return result.text;
};

const simulatedUserTurn = async (
  ctx: RunContext,
  transcript: TTranscriptMessage[],
  item: WorkItem,
  left: number,
  track: CallTracker,
) => {
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: ctx.testing,
      system: simulatedUserSystem({
        userDescription: ctx.userDescription,
        conversationFlow: ctx.conversationFlow,
        question: item.question,
        turnsBeforeQuestion: left,
      }),
      messages: transcript.length ? flip(transcript) : [{ role: 'user', content: '(The assistant is waiting.)' }],
      source: 'evaluation.simulated-user',
      signal: ctx.signal,
    }),
  );
  if (!result.offline) track.online = true;
  return result.text.trim() || 'Hello.';
};

const judge = async (
  ctx: RunContext,
  item: WorkItem,
  question: string,
  transcript: TTranscriptMessage[],
  track: CallTracker,
) => {
  const answer = transcript.at(-1)?.content ?? '';
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: ctx.testing,
      system: judgeSystem(ctx.hallucinationInstruction),
      messages: [
        {
          role: 'user',
          content: judgePrompt({ question, successCriteria: item.successCriteria, transcript, answer }),
        },
      ],
      temperature: 0,
      schema: ZJudgeVerdict,
      source: 'evaluation.judge',
      signal: ctx.signal,
    }),
  );
  if (!result.offline) track.online = true;
  const parsed = ZJudgeVerdict.safeParse(result.object);
  if (parsed.success) return parsed.data;
  throw new AppError('AI_EMPTY_RESPONSE', 'The judge gave no valid verdict');
};

/**
 * One conversation: the agent's opening line, whenToAsk - 1 turns of the simulated user and the
 * agent, then the question; the judge grades the agent's answer.
 */
export const runConversation = async (ctx: RunContext, item: WorkItem) => {
  const track: CallTracker = { online: false };
  const question = await questionFor(ctx, item, track);
  const transcript: TTranscriptMessage[] = [];
  if (ctx.initialMessage) transcript.push({ role: 'assistant', content: ctx.initialMessage });
  const state = { threadId: null as string | null };
  for (let turn = 1; turn < item.whenToAsk; turn += 1) {
    transcript.push({
      role: 'user',
      content: await simulatedUserTurn(ctx, transcript, item, item.whenToAsk - turn, track),
    });
    transcript.push({ role: 'assistant', content: await agentReply(ctx, transcript, state, track) });
  }
  transcript.push({ role: 'user', content: question });
  const answer = await agentReply(ctx, transcript, state, track);
  transcript.push({ role: 'assistant', content: answer });
  const verdict = await judge(ctx, item, question, transcript, track);
  return { offline: !track.online, question, transcript, answer, verdict } satisfies ConversationOutcome;
};
