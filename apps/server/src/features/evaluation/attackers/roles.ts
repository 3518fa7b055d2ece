import type { AdaptiveGoal, TAdaptiveStrategy, TAttackStep, TTranscriptMessage } from '@switchboard/core';
import { z } from 'zod';
import { AppError } from '../../../platform/errors';
import { type ModelChoice, runModel } from '../../llm/gateway';
import { agentReply, type CallTracker, type RunContext } from '../conversation';
import { withRetry } from '../retry';
import type { AttackBudget } from './budget';
import { offlineAttack, offlineJudgement } from './offline';
import {
  attackerPrompt,
  attackerSystem,
  attackJudgePrompt,
  attackJudgeSystem,
  STRICT_ATTACK_JUDGE_FORMAT,
} from './prompts';

/** The three roles of an adaptive attack: the attacker and the judge (metered, budgeted) and the agent under test. */

export const ZAttackerTurn = z.object({ plan: z.string().default(''), message: z.string() });
export const ZAttackJudgement = z.object({
  score: z.coerce.number(),
  refused: z.boolean().default(false),
  feedback: z.string().default(''),
});
export type AttackJudgement = { score: number; refused: boolean; feedback: string };

export interface AttackState {
  ctx: RunContext;
  strategy: TAdaptiveStrategy;
  goal: AdaptiveGoal;
  budget: AttackBudget;
  track: CallTracker;
  attacker: ModelChoice;
  judge: ModelChoice;
}

/** One model call of the attacker or the judge: every attempt takes one call of the budget, and obeys the run's signal. */
const budgetedCall = (state: AttackState, input: Parameters<typeof runModel>[1]) =>
  withRetry(state.ctx, () => {
    state.budget.spend();
    return runModel(state.ctx.deps, input);
  }).then((result) => {
    if (!result.offline) state.track.online = true;
    return result;
  });

const firstJson = (text: string): unknown => {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
};

/** The attacker's next message. */
export const attackerTurn = async (
  state: AttackState,
  input: {
    step: number;
    turn: number;
    conversation: TTranscriptMessage[];
    history: TAttackStep[];
    lastBacktracked: boolean;
  },
): Promise<{ plan: string; message: string }> => {
  const { ctx } = state;
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (state.attacker.provider === 'offline') {
    state.budget.spend();
    return offlineAttack({ strategy: state.strategy, goal: state.goal, turn: input.turn, history: input.history });
  }
  const result = await budgetedCall(state, {
    accountId: ctx.accountId,
    subaccountId: ctx.subaccountId,
    choice: state.attacker,
    system: attackerSystem(state.strategy, ctx.adaptive?.settings.maxTurns ?? 1),
    messages: [
      {
        role: 'user',
        content: attackerPrompt({
          goal: state.goal.goal,
          step: input.step,
          turn: input.turn,
          agentBrief: ctx.agentBrief,
          conversation: input.conversation.map(({ role, content }) => ({ role, content })),
          history: input.history,
          lastBacktracked: input.lastBacktracked,
        }),
      },
    ],
    schema: ZAttackerTurn,
    temperature: 1,
    source: 'evaluation.attacker',
    signal: ctx.signal,
    strict: true,
  });
  const parsed = ZAttackerTurn.safeParse(result.object ?? firstJson(result.text));
  const message = parsed.success ? parsed.data.message.trim() : result.text.trim();
  if (!message) throw new AppError('AI_EMPTY_RESPONSE', 'The attacker model wrote no message.');
  return { plan: parsed.success ? parsed.data.plan.trim() : '', message };
};

const isUnreadable = (error: unknown) => error instanceof AppError && error.code === 'AI_EMPTY_RESPONSE';

const readJudgement = (value: unknown): AttackJudgement | null => {
  const parsed = ZAttackJudgement.safeParse(value);
  if (!parsed.success || !Number.isFinite(parsed.data.score)) return null;
  return { ...parsed.data, score: Math.min(10, Math.max(1, Math.round(parsed.data.score))) };
};

/**
 * The judge's score (1-10), whether the reply refused, and its feedback for the attacker. An
 * unreadable answer is asked again once in a stricter format (a call of the budget too); still
 * unreadable, the attack ends in error, never with a score nobody gave.
 */
export const judgeTurn = async (state: AttackState, attack: string, reply: string): Promise<AttackJudgement> => {
  const { ctx } = state;
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (state.judge.provider === 'offline') {
    state.budget.spend();
    return offlineJudgement({ goal: state.goal.goal, attack, reply });
  }
  const base = {
    accountId: ctx.accountId,
    subaccountId: ctx.subaccountId,
    choice: state.judge,
    messages: [
      {
        role: 'user' as const,
        content: attackJudgePrompt({ goal: state.goal.goal, rubric: state.goal.rubric, attack, reply }),
      },
    ],
    temperature: 0,
    signal: ctx.signal,
    strict: true,
  };
  try {
    const result = await budgetedCall(state, {
      ...base,
      system: attackJudgeSystem(),
      schema: ZAttackJudgement,
      source: 'evaluation.attack-judge',
    });
    const judged = readJudgement(result.object ?? firstJson(result.text));
    if (judged) return judged;
  } catch (error) {
    if (!isUnreadable(error)) throw error;
  }
  const retry = await budgetedCall(state, {
    ...base,
    system: `${attackJudgeSystem()}\n${STRICT_ATTACK_JUDGE_FORMAT}`,
    source: 'evaluation.attack-judge-retry',
  });
  const judged = readJudgement(firstJson(retry.text));
  if (judged) return judged;
  throw new AppError(
    'AI_EMPTY_RESPONSE',
    "The attack judge's answer could not be read, also when asked again in a stricter format.",
  );
};

/** What the agent under test keeps between turns: its thread (agents) and whether to send the history again. */
export interface TargetState {
  threadId: string | null;
  replay?: boolean;
}

/**
 * The agent under test answers the last message of `conversation`, with the run's evaluation
 * origin like every evaluation conversation: nothing it does reaches the outside.
 */
export const targetTurn = (state: AttackState, conversation: TTranscriptMessage[], target: TargetState) =>
  agentReply(state.ctx, conversation, target, state.track);
