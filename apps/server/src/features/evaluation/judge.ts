import { type TJudgeVerdict, type TTranscriptMessage, ZJudgeVerdict } from '@switchboard/core';
import { AppError } from '../../platform/errors';
import { runModel } from '../llm/gateway';
import type { CallTracker, RunContext, WorkItem } from './conversation';
import { offlineVerdict } from './offline-roles';
import { judgePrompt, judgeSystem, STRICT_JUDGE_FORMAT } from './prompts';
import { withRetry } from './retry';

/** A verdict read from free text: the first JSON object in it, validated. */
export const verdictFromText = (text: string): TJudgeVerdict | null => {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = ZJudgeVerdict.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const isUnreadable = (error: unknown) => error instanceof AppError && error.code === 'AI_EMPTY_RESPONSE';

/**
 * The judge grades the agent's answer with structured output; an unreadable answer is asked again
 * once with a stricter format. Still unreadable: the conversation ends in error, never in a verdict
 * nobody made. The offline model, picked by name, checks words (offline-roles.ts).
 */
export const judge = async (
  ctx: RunContext,
  item: WorkItem,
  question: string,
  answer: string,
  transcript: TTranscriptMessage[],
  track: CallTracker,
): Promise<TJudgeVerdict> => {
  const followedUp = transcript.at(-1)?.content !== answer;
  if (ctx.testing.provider === 'offline') {
    const asked = [item.question, question, ...transcript.filter((m) => m.role === 'user').map((m) => m.content)];
    return offlineVerdict({ successCriteria: item.successCriteria, answer, asked });
  }
  const base = {
    accountId: ctx.accountId,
    subaccountId: ctx.subaccountId,
    choice: ctx.testing,
    messages: [
      {
        role: 'user' as const,
        content: judgePrompt({ question, successCriteria: item.successCriteria, transcript, answer, followedUp }),
      },
    ],
    temperature: 0,
    source: 'evaluation.judge',
    signal: ctx.signal,
    strict: true,
  };
  const system = judgeSystem(
    { check: ctx.hallucinationCheck, instruction: ctx.hallucinationInstruction },
    ctx.agentBrief,
  );
  try {
    const result = await withRetry(ctx, () => runModel(ctx.deps, { ...base, system, schema: ZJudgeVerdict }));
    if (!result.offline) track.online = true;
    const parsed = ZJudgeVerdict.safeParse(result.object);
    if (parsed.success) return parsed.data;
  } catch (error) {
    if (!isUnreadable(error)) throw error;
  }
  const retry = await withRetry(ctx, () =>
    runModel(ctx.deps, { ...base, system: `${system}\n${STRICT_JUDGE_FORMAT}`, source: 'evaluation.judge-retry' }),
  );
  if (!retry.offline) track.online = true;
  const verdict = verdictFromText(retry.text);
  if (verdict) return verdict;
  throw new AppError(
    'AI_EMPTY_RESPONSE',
    "The judge's answer could not be read, also when asked again in a stricter format.",
  );
};
