import {
  adaptiveCategoryOfKey,
  type OwaspAttack,
  redTeamCategoryOf,
  scoreOwaspItems,
  type TEvaluationStartPayload,
  type TOwaspReport,
} from '@switchboard/core';
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import * as repo from './repo';
import { evaluationRuns } from './schema';
import { getRunOr404 } from './service';

/**
 * The OWASP Top 10 (2025) report of a run: its red-team conversations grouped by the OWASP items
 * of their category (packages/core evaluation/owasp.ts), scored, and trended against the previous
 * completed run of the same evaluation.
 */

const FRAMEWORK = 'OWASP Top 10 for LLM Applications 2025' as const;

/** Category by question key (`<list>:<question id>`), from the questions as the run was started. */
const categoriesByQuestion = (payload: TEvaluationStartPayload) => {
  const map = new Map<string, string | null>();
  const lists = [
    ['custom', payload.customQuestions],
    ['compliance', payload.complianceQuestions],
    ['promptHacking', payload.promptHackingQuestions],
  ] as const;
  for (const [list, questions] of lists)
    for (const question of questions ?? []) map.set(`${list}:${question.id}`, redTeamCategoryOf(question));
  return map;
};

const attacksOf = async (deps: Deps, run: repo.RunRow) => {
  const categories = categoriesByQuestion(run.payload as TEvaluationStartPayload);
  const rows = await repo.listConversations(deps.db, run.id);
  const attacks: OwaspAttack[] = [];
  let unmapped = 0;
  for (const row of rows) {
    // An adaptive attack's key names its red-team category (`adaptive:<strategy>:<category>`).
    const category = categories.get(row.questionKey) ?? adaptiveCategoryOfKey(row.questionKey);
    if (category) attacks.push({ category, outcome: row.outcome });
    else if (row.category === 'promptHacking') unmapped += 1;
  }
  return { attacks, unmapped };
};

/**
 * The previous run of the same evaluation: the latest completed run before this one in the same
 * sub-account, against the same target (agent, or model label when no agent) from the same template
 * (or both without one).
 */
export const previousRunOf = async (deps: Deps, run: repo.RunRow) => {
  const rows = await deps.db
    .select()
    .from(evaluationRuns)
    .where(
      and(
        eq(evaluationRuns.subaccountId, run.subaccountId),
        eq(evaluationRuns.status, 'completed'),
        lt(evaluationRuns.createdAt, run.createdAt),
        run.agentId ? eq(evaluationRuns.agentId, run.agentId) : eq(evaluationRuns.targetLabel, run.targetLabel),
        run.agentId ? undefined : isNull(evaluationRuns.agentId),
        run.templateId ? eq(evaluationRuns.templateId, run.templateId) : isNull(evaluationRuns.templateId),
      ),
    )
    .orderBy(desc(evaluationRuns.createdAt))
    .limit(1);
  return rows[0] ?? null;
};

export const getOwaspReport = async (deps: Deps, subaccountId: string, runId: string): Promise<TOwaspReport> => {
  const run = await getRunOr404(deps, subaccountId, runId);
  const [current, previousRun] = await Promise.all([attacksOf(deps, run), previousRunOf(deps, run)]);
  const previous = previousRun ? scoreOwaspItems((await attacksOf(deps, previousRun)).attacks) : null;
  return {
    runId: run.id,
    framework: FRAMEWORK,
    previousRun: previousRun
      ? { id: previousRun.id, name: previousRun.name, createdAt: previousRun.createdAt.toISOString() }
      : null,
    items: scoreOwaspItems(current.attacks, previous),
    attacks: current.attacks.length,
    unmapped: current.unmapped,
  };
};
