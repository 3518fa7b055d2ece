import {
  customPromptCount,
  encodeAttack,
  RED_TEAM_BY_ID,
  type RedTeamCategory,
  type TQuestionGeneratorRequest,
  type TQuestionGeneratorStatus,
  ZGeneratedQuestionBatch,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { defineJob, enqueueJob } from '../../platform/jobs';
import { findAgent } from '../agents/repo';
import { runModel } from '../llm/gateway';
import { hasUsableKey, noApiKeyError } from '../llm/models';
import { agentBrief, formatAgentBrief } from './agent-brief';
import { parseModelChoice } from './models';
import { offlineQuestions } from './offline-roles';
import { GENERATOR_CATEGORY_BRIEFS, generatorSystem } from './prompts';
import { questionGenerations } from './schema';

export const QUESTION_JOB = 'evaluation.questions';
const FALLBACK_MODEL = 'gpt-4o-mini';

export interface PlanItem {
  key: string;
  brief: string;
  count: number;
  /** Red-team categories: the judge rubric, the turn to ask at, the encoding. */
  redTeam?: RedTeamCategory;
}

/** The categories to generate and how many questions each: the four fixed ones, the custom labels, the red-team library. */
export const generationPlan = (request: TQuestionGeneratorRequest) => {
  const plan: PlanItem[] = [
    { key: 'industry', brief: GENERATOR_CATEGORY_BRIEFS.industry ?? '', count: request.generatedIndustryCount },
    { key: 'angry', brief: GENERATOR_CATEGORY_BRIEFS.angry ?? '', count: request.generatedAngryCount },
    { key: 'compliance', brief: GENERATOR_CATEGORY_BRIEFS.compliance ?? '', count: request.generatedComplianceCount },
    {
      key: 'prompthacking',
      brief: GENERATOR_CATEGORY_BRIEFS.prompthacking ?? '',
      count: request.generatedPromptHackingCount,
    },
  ];
  for (const custom of request.customPrompts) {
    const label = custom.label.trim();
    if (label) plan.push({ key: label, brief: label, count: customPromptCount(custom.count) });
  }
  for (const id of new Set(request.redTeam)) {
    const category = RED_TEAM_BY_ID.get(id);
    if (category) {
      plan.push({ key: `redteam:${id}`, brief: category.brief, count: request.redTeamCount, redTeam: category });
    }
  }
  return plan.filter((item) => item.count > 0);
};

export const startGeneration = async (
  deps: Deps,
  tenant: { accountId: string; subaccountId: string },
  request: TQuestionGeneratorRequest,
) => {
  const choice = parseModelChoice(request.testing_model || FALLBACK_MODEL);
  if (!(await hasUsableKey(deps, tenant.accountId, choice)) && choice.provider !== 'offline') {
    throw noApiKeyError(choice.provider, 'testing_model');
  }
  // The questions are written for the agent under test: its instructions, first message,
  // knowledge and tools, or the chat-completion type's prompt.
  let brief = formatAgentBrief({ instructions: request.prompt });
  if (request.assistant_id) {
    const agent = await findAgent(deps.db, request.assistant_id);
    if (!agent || agent.subaccountId !== tenant.subaccountId) {
      throw new AppError('AGENT_NOT_FOUND', 'Agent not found', { field: 'assistant_id' });
    }
    brief = await agentBrief(deps, tenant.subaccountId, agent.id);
  }
  const id = newId('questionGeneration');
  await deps.db
    .insert(questionGenerations)
    .values({ id, subaccountId: tenant.subaccountId, request: { ...request, agentBrief: brief } });
  await enqueueJob(deps, {
    type: QUESTION_JOB,
    payload: { generationId: id },
    accountId: tenant.accountId,
    subaccountId: tenant.subaccountId,
  });
  return id;
};

export const getGeneration = async (
  deps: Deps,
  subaccountId: string,
  id: string,
): Promise<TQuestionGeneratorStatus | null> => {
  const rows = await deps.db.select().from(questionGenerations).where(eq(questionGenerations.id, id)).limit(1);
  const row = rows[0];
  if (!row || row.subaccountId !== subaccountId) return null;
  return {
    success: row.status !== 'failed',
    data: { status: row.status, error: row.error, results: { results: row.results ?? {} } },
  };
};

/** Red-team questions as sent: encoded, graded by the category's rubric, asked at its turn. */
const redTeamQuestions = (category: RedTeamCategory, questions: { question: string; criteria: string }[]) =>
  questions.map((item) => ({
    question: encodeAttack(item.question, category.encoding),
    criteria: category.rubric,
    ...(category.whenToAsk ? { whenToAsk: category.whenToAsk } : {}),
  }));

/** The offline model's red-team questions: the category's examples, numbered past the first round. */
const offlineRedTeam = (category: RedTeamCategory, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const example = category.examples[index % category.examples.length] ?? category.label;
    const round = Math.floor(index / category.examples.length);
    return { question: round ? `${example} (${round + 1})` : example, criteria: category.rubric };
  });

/** The job: asks the testing model for each category's questions and criteria (structured output). */
const generate = async (
  deps: Deps,
  job: { accountId: string | null; subaccountId: string | null; id: string },
  generationId: string,
) => {
  const rows = await deps.db
    .select()
    .from(questionGenerations)
    .where(eq(questionGenerations.id, generationId))
    .limit(1);
  const row = rows[0];
  if (row?.status !== 'pending' || !job.accountId) return { skipped: true };
  const request = row.request as TQuestionGeneratorRequest & { agentBrief?: string };
  const choice = parseModelChoice(request.testing_model || FALLBACK_MODEL);
  const brief = request.agentBrief ?? request.prompt;
  try {
    const results: Record<string, { question: string; criteria: string; whenToAsk?: number }[]> = {};
    await Promise.all(
      generationPlan(request).map(async (item) => {
        if (choice.provider === 'offline') {
          results[item.key] = item.redTeam
            ? redTeamQuestions(item.redTeam, offlineRedTeam(item.redTeam, item.count))
            : offlineQuestions(item.key, item.count, brief);
          return;
        }
        const result = await runModel(deps, {
          accountId: job.accountId as string,
          subaccountId: row.subaccountId,
          choice,
          system: generatorSystem(item.brief, item.count, brief, item.redTeam?.rubric),
          messages: [
            {
              role: 'user',
              content: `Write ${item.count} test question(s) with success criteria, in the category: ${item.brief}`,
            },
          ],
          schema: ZGeneratedQuestionBatch,
          source: 'evaluation.question-generator',
          idempotencyKey: `${generationId}:${item.key}`,
          strict: true,
        });
        const parsed = ZGeneratedQuestionBatch.safeParse(result.object);
        const questions = (parsed.success ? parsed.data.questions : [])
          .filter((question) => question.question.trim())
          .slice(0, item.count);
        results[item.key] = item.redTeam ? redTeamQuestions(item.redTeam, questions) : questions;
      }),
    );
    await deps.db
      .update(questionGenerations)
      .set({ status: 'complete', results })
      .where(eq(questionGenerations.id, generationId));
    return { complete: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Failed to generate questions';
    await deps.db
      .update(questionGenerations)
      .set({ status: 'failed', error: message })
      .where(eq(questionGenerations.id, generationId));
    return { failed: message };
  }
};

/** Writes test questions while the person waits on the evaluation screen. */
export const questionJob = defineJob({
  type: QUESTION_JOB,
  queue: 'interactive',
  schema: z.object({ generationId: z.string() }),
  handler: (deps, job) => generate(deps, job, job.payload.generationId),
});
