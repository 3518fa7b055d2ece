import type {
  AdaptiveGoal,
  TAdaptiveAttack,
  TAdaptiveAttackSettings,
  TAdaptiveStrategy,
  TCheckResult,
  TJudgeVerdict,
  TOrigin,
  TQuestion,
  TQuestionCheck,
  TTranscriptMessage,
} from '@switchboard/core';
import { checksVerdict } from '@switchboard/core';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { replyAsAgent } from '../conversations/reply';
import { type ModelChoice, runModel } from '../llm/gateway';
import { runChecks } from './checks';
import { type ClaimGrader, groundingPrompt, groundingSystem, type RetrievedSource, ZClaimGrades } from './grounding';
import { judge } from './judge';
import { offlineUserMessage } from './offline-roles';
import { followUpSystem, rewordSystem, simulatedUserSystem } from './prompts';
import { withRetry } from './retry';
import type { CheckEmbedder } from './semantic-check';

export interface RunContext {
  deps: Deps;
  runId: string;
  /**
   * A run is a test: every turn of the agent carries this origin, so nothing it causes reaches the
   * outside (no webhooks, channel messages or mail; writing tools recorded as "would call").
   */
  origin: Extract<TOrigin, 'evaluation'>;
  accountId: string;
  subaccountId: string;
  testing: ModelChoice;
  initialMessage: string;
  userDescription: string;
  conversationFlow: string;
  hallucinationInstruction: string;
  /** The judge checks answers against the agent's instructions and knowledge (hallucinationChoice or an instruction). */
  hallucinationCheck: boolean;
  /** Turns the simulated user may add after the question (0: none). */
  followUpTurns: number;
  /** What the simulated user and the judge know of the agent: instructions, first message, knowledge, tools. */
  agentBrief: string;
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
  /** The agent's embedding model for semantic similarity checks; null or absent: term vectors. */
  embedder?: CheckEmbedder | null;
  /** The run's adaptive attacks: their settings and the attacker's and judge's models (attackers/). */
  adaptive?: {
    settings: TAdaptiveAttackSettings;
    attacker: ModelChoice;
    judge: ModelChoice;
    attackerLabel: string;
    judgeLabel: string;
  };
}

export interface WorkItem {
  questionKey: string;
  category: 'custom' | 'compliance' | 'promptHacking';
  position: number;
  variation: number;
  question: string;
  successCriteria: string;
  whenToAsk: number;
  checks?: TQuestionCheck[];
  /** Share of the checks' weight that must pass; unset: every check. */
  passThreshold?: number;
  /** A case from a real conversation: its earlier turns are replayed before the question. */
  replay?: TQuestion['replay'];
  /** A poisoned document merged into the agent's retrieval for this conversation only. */
  plantedDocument?: TQuestion['plantedDocument'];
  /** An adaptive attack (attackers/) instead of a question: its strategy and goal. */
  adaptive?: { strategy: TAdaptiveStrategy; goal: AdaptiveGoal };
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
  checks: TCheckResult[];
  /** An adaptive attack's record (steps, scores, budget). */
  attack?: TAdaptiveAttack;
}

/** What the agent's answers cost and did, from the question on (for the checks). */
interface Measure {
  latencyMs: number;
  credits: number;
  toolCalls: { name: string; input: unknown }[];
  /** The excerpts the agent retrieved for its answer to the question. */
  sources?: RetrievedSource[];
}

/**
 * What a conversation has so far; the caller keeps it, so a conversation that ends in an error
 * is stored with the transcript it reached.
 */
export interface ConversationProgress {
  question: string;
  transcript: TTranscriptMessage[];
  /** An adaptive attack's record as far as it got. */
  attack?: TAdaptiveAttack;
}

const flip = (transcript: TTranscriptMessage[]) =>
  transcript.map((message) => ({
    role: message.role === 'user' ? ('assistant' as const) : ('user' as const),
    content: message.content,
  }));

/** Reworded question for a variation; variation 0 is the question as written. */
const questionFor = async (ctx: RunContext, item: WorkItem, track: CallTracker): Promise<string> => {
  if (item.variation === 0) return item.question;
  // The offline model cannot reword: the variation asks the question as written, and says so.
  if (ctx.testing.provider === 'offline') return `${item.question} (variation ${item.variation})`;
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
      strict: true,
    }),
  );
  if (!result.offline) track.online = true;
  const reworded = (result.object as { question?: string } | undefined)?.question?.trim();
  return reworded || result.text.trim() || item.question;
};

/** The agent under test answers the last user message; `measure` (from the question on) adds its cost and tool calls. */
export const agentReply = async (
  ctx: RunContext,
  transcript: TTranscriptMessage[],
  state: { threadId: string | null; replay?: boolean; planted?: RetrievedSource[] },
  track: CallTracker,
  measure?: Measure,
): Promise<TTranscriptMessage> => {
  const last = transcript.at(-1)?.content ?? '';
  const started = performance.now();
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
        origin: ctx.origin,
        signal: ctx.signal,
        strict: true,
        ...(state.planted ? { plantedKnowledge: state.planted } : {}),
        // A replayed case gives the agent the recorded turns before the question.
        ...(state.replay && !state.threadId
          ? { history: transcript.map(({ role, content }) => ({ role, content })) }
          : {}),
      }),
    );
    state.threadId = reply.threadId;
    if (!reply.offline) track.online = true;
    if (measure) {
      measure.latencyMs ||= performance.now() - started;
      measure.credits += reply.credits;
      measure.toolCalls.push(...reply.toolCalls);
      measure.sources ??= reply.sources;
    }
    return answered(reply.message, reply.toolCalls, reply.sources);
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
      messages: transcript.slice(Math.max(0, firstUser)).map(({ role, content }) => ({ role, content })),
      temperature: target.temperature,
      maxTokens: target.maxTokens,
      source: 'evaluation.agent',
      signal: ctx.signal,
      strict: true,
    }),
  );
  if (!result.offline) track.online = true;
  if (measure) {
    measure.latencyMs ||= performance.now() - started;
    measure.credits += result.usage.credits;
    measure.toolCalls.push(...result.toolCalls);
  }
  return answered(result.text, result.toolCalls);
};

/** The agent's line of the transcript, with the tools it called (and what they answered). */
const answered = (
  content: string,
  toolCalls: { name: string; input: unknown; output: unknown; notCalled?: boolean }[],
  sources: RetrievedSource[] = [],
) => ({
  role: 'assistant' as const,
  content,
  ...(toolCalls.length ? { toolCalls } : {}),
  ...(sources.length ? { sources } : {}),
});

/** The judge model grades the answer's claims against the excerpts; null (lexical fallback) offline or unreadable. */
const claimGrader = (ctx: RunContext, track: CallTracker): ClaimGrader | null =>
  ctx.testing.provider === 'offline'
    ? null
    : async (question, answer, sources) => {
        const result = await withRetry(ctx, () =>
          runModel(ctx.deps, {
            accountId: ctx.accountId,
            subaccountId: ctx.subaccountId,
            choice: ctx.testing,
            system: groundingSystem(),
            messages: [{ role: 'user', content: groundingPrompt(question, answer, sources) }],
            schema: ZClaimGrades,
            temperature: 0,
            source: 'evaluation.grounding',
            signal: ctx.signal,
            strict: true,
          }),
        ).catch((error: unknown) => {
          // A stopped run stops here too; any other failure falls back to the lexical check.
          if (ctx.signal.aborted) throw error;
          return null;
        });
        if (result && !result.offline) track.online = true;
        const parsed = ZClaimGrades.safeParse(result?.object);
        return parsed.success ? parsed.data : null;
      };

const simulatedUserTurn = async (
  ctx: RunContext,
  transcript: TTranscriptMessage[],
  item: WorkItem,
  left: number,
  track: CallTracker,
) => {
  if (ctx.testing.provider === 'offline') {
    return offlineUserMessage(ctx.userDescription, transcript.filter((message) => message.role === 'user').length + 1);
  }
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: ctx.testing,
      system: simulatedUserSystem({
        userDescription: ctx.userDescription,
        conversationFlow: ctx.conversationFlow,
        agentBrief: ctx.agentBrief,
        question: item.question,
        turnsBeforeQuestion: left,
      }),
      messages: transcript.length ? flip(transcript) : [{ role: 'user', content: '(The assistant is waiting.)' }],
      source: 'evaluation.simulated-user',
      signal: ctx.signal,
      strict: true,
    }),
  );
  if (!result.offline) track.online = true;
  return result.text.trim() || 'Hello.';
};

/** The simulated user's message after the answer, or null when the criteria need no more turns. */
const followUpTurn = async (
  ctx: RunContext,
  transcript: TTranscriptMessage[],
  item: WorkItem,
  track: CallTracker,
): Promise<string | null> => {
  const result = await withRetry(ctx, () =>
    runModel(ctx.deps, {
      accountId: ctx.accountId,
      subaccountId: ctx.subaccountId,
      choice: ctx.testing,
      system: followUpSystem({
        userDescription: ctx.userDescription,
        agentBrief: ctx.agentBrief,
        successCriteria: item.successCriteria,
      }),
      messages: flip(transcript),
      source: 'evaluation.simulated-user',
      signal: ctx.signal,
      strict: true,
    }),
  );
  if (!result.offline) track.online = true;
  const text = result.text.trim();
  return !text || /^DONE\W*$/i.test(text) ? null : text;
};

/** The planted document as one retrieved excerpt, marked as planted by its id. */
export const PLANTED_DOCUMENT_ID = 'planted';
const plantedSource = (document: NonNullable<TQuestion['plantedDocument']>): RetrievedSource => ({
  documentId: PLANTED_DOCUMENT_ID,
  name: document.name,
  excerpt: document.content,
});

/**
 * One conversation: the agent's opening line, whenToAsk - 1 turns of the simulated user and the
 * agent, then the question, then up to followUpTurns more turns while the simulated user finds the
 * success criteria need them; the judge grades the agent's answer in that exchange. `progress` holds the transcript
 * as it grows, so a conversation that ends in an error keeps what it reached.
 */
export const runConversation = async (
  ctx: RunContext,
  item: WorkItem,
  progress: ConversationProgress = { question: item.question, transcript: [] },
): Promise<ConversationOutcome> => {
  const track: CallTracker = { online: false };
  const transcript = progress.transcript;
  const state = {
    threadId: null as string | null,
    replay: Boolean(item.replay),
    planted: item.plantedDocument ? [plantedSource(item.plantedDocument)] : undefined,
  };
  if (item.replay) {
    // A real conversation: its recorded turns, then its last user message as the question.
    transcript.push(...item.replay.history);
  } else if (ctx.initialMessage) {
    transcript.push({ role: 'assistant', content: ctx.initialMessage });
  }
  const question = await questionFor(ctx, item, track);
  progress.question = question;
  for (let turn = 1; !item.replay && turn < item.whenToAsk; turn += 1) {
    transcript.push({
      role: 'user',
      content: await simulatedUserTurn(ctx, transcript, item, item.whenToAsk - turn, track),
    });
    transcript.push(await agentReply(ctx, transcript, state, track));
  }
  transcript.push({ role: 'user', content: question });
  const measure: Measure = { latencyMs: 0, credits: 0, toolCalls: [] };
  const answerLine = await agentReply(ctx, transcript, state, track, measure);
  const answer = answerLine.content;
  transcript.push(answerLine);
  // The offline model cannot tell whether the criteria need more turns: it never follows up.
  const followUps = ctx.testing.provider === 'offline' ? 0 : ctx.followUpTurns;
  for (let turn = 0; turn < followUps; turn += 1) {
    const next = await followUpTurn(ctx, transcript, item, track);
    if (!next) break;
    transcript.push({ role: 'user', content: next });
    transcript.push(await agentReply(ctx, transcript, state, track, measure));
  }
  const checks = await runChecks(
    item.checks,
    { answer, question, ...measure, sources: measure.sources ?? [] },
    ctx.embedder,
    ctx.signal,
    claimGrader(ctx, track),
  );
  // With checks and no success criteria, the checks alone decide (no judge call).
  const judged = item.successCriteria.trim() || !checks.length;
  const verdict = judged ? await judge(ctx, item, question, answer, transcript, track) : null;
  const checked = checksVerdict(checks, item.passThreshold);
  const passed = (verdict?.passed ?? true) && checked.passed;
  return {
    offline: !track.online,
    question,
    transcript,
    answer,
    checks,
    verdict: {
      passed,
      score: verdict ? verdict.score : checked.score,
      reasoning: verdict
        ? `${verdict.reasoning}${item.passThreshold !== undefined && checks.length ? ` Checks: ${checked.summary}.` : ''}`
        : `Checks only (no success criteria): ${checked.summary}.`,
    },
  };
};
