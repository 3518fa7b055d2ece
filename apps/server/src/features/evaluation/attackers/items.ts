import {
  adaptiveAttackKey,
  adaptiveGoals,
  type TEvaluationStartPayload,
  ZAdaptiveAttackSettings,
} from '@switchboard/core';
import type { Deps } from '../../../platform/deps';
import { hasUsableKey, noApiKeyError } from '../../llm/models';
import type { RunContext, WorkItem } from '../conversation';
import { parseModelChoice } from '../models';

/** The adaptive attack settings of a run, parsed; null when it runs no adaptive strategy. */
const settingsOf = (payload: Pick<TEvaluationStartPayload, 'settings'>) => {
  const raw = payload.settings.adaptiveAttacks;
  if (!raw?.strategies?.length) return null;
  return ZAdaptiveAttackSettings.parse(raw);
};

/**
 * The adaptive attacks of a run, after its questions: each strategy against each goal, keyed
 * `adaptive:<strategy>:<goal id>` (variation 0), so a resumed run skips the attacks it stored.
 */
export function* adaptiveItems(payload: TEvaluationStartPayload, after: number): Generator<WorkItem> {
  const settings = settingsOf(payload);
  if (!settings) return;
  let position = after;
  for (const strategy of settings.strategies) {
    for (const goal of adaptiveGoals(settings)) {
      position += 1;
      yield {
        questionKey: adaptiveAttackKey(strategy, goal.id),
        category: 'promptHacking',
        position,
        variation: 0,
        question: goal.goal,
        successCriteria: goal.rubric,
        whenToAsk: 1,
        adaptive: { strategy, goal },
      };
    }
  }
}

/** The attacker's and judge's models of a run: their own, or the run's testing model. */
export const adaptiveContext = (
  payload: Pick<TEvaluationStartPayload, 'settings'>,
  testingModel: string,
): RunContext['adaptive'] => {
  const settings = settingsOf(payload);
  if (!settings) return undefined;
  const attackerLabel = settings.attackerModel.trim() || testingModel;
  const judgeLabel = settings.judgeModel.trim() || testingModel;
  return {
    settings,
    attacker: parseModelChoice(attackerLabel),
    judge: parseModelChoice(judgeLabel),
    attackerLabel,
    judgeLabel,
  };
};

/**
 * Like the testing model, the attacker and the judge never fall back to the offline model on their
 * own: each needs a usable key unless the offline model was picked by name. Answers whether one of
 * them is the offline model.
 */
export const ensureAttackersRunnable = async (
  deps: Deps,
  accountId: string,
  payload: Pick<TEvaluationStartPayload, 'settings'>,
  testingModel: string,
): Promise<{ offline: boolean }> => {
  const context = adaptiveContext(payload, testingModel);
  if (!context) return { offline: false };
  for (const [choice, field] of [
    [context.attacker, 'settings.adaptiveAttacks.attackerModel'],
    [context.judge, 'settings.adaptiveAttacks.judgeModel'],
  ] as const) {
    if (choice.provider !== 'offline' && !(await hasUsableKey(deps, accountId, choice))) {
      throw noApiKeyError(choice.provider, field);
    }
  }
  return { offline: context.attacker.provider === 'offline' || context.judge.provider === 'offline' };
};
