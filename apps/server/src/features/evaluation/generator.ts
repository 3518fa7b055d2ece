import {
  customPromptCount,
  type TQuestionGeneratorRequest,
  type TQuestionGeneratorStatus,
  ZGeneratedQuestionBatch,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { enqueueJob, registerJobHandler } from '../../platform/jobs';
import { runModel } from '../llm/gateway';
import { parseModelChoice } from './models';
import { GENERATOR_CATEGORY_BRIEFS, generatorSystem } from './prompts';
import { questionGenerations } from './schema';

export const QUESTION_JOB = 'evaluation.questions';
const FALLBACK_MODEL = 'gpt-4o-mini';

/** The categories to generate and how many questions each: the four fixed ones and the custom labels. */
export const generationPlan = (request: TQuestionGeneratorRequest) => {
  const plan: { key: string; brief: string; count: number }[] = [
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
  return plan.filter((item) => item.count > 0);
};

export const startGeneration = async (
  deps: Deps,
  tenant: { accountId: string; subaccountId: string },
  request: TQuestionGeneratorRequest,
) => {
  const id = newId('questionGeneration');
  await deps.db.insert(questionGenerations).values({ id, subaccountId: tenant.subaccountId, request });
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
  const request = row.request as TQuestionGeneratorRequest;
  const choice = parseModelChoice(request.testing_model || FALLBACK_MODEL);
  try {
    const results: Record<string, { question: string; criteria: string }[]> = {};
    await Promise.all(
      generationPlan(request).map(async (item) => {
        const result = await runModel(deps, {
          accountId: job.accountId as string,
          subaccountId: row.subaccountId,
          choice,
          system: generatorSystem(item.brief, item.count, request.prompt),
          messages: [{ role: 'user', content: `Write ${item.count} question(s) for: ${item.brief}` }],
          schema: ZGeneratedQuestionBatch,
          source: 'evaluation.question-generator',
          idempotencyKey: `${generationId}:${item.key}`,
        });
        const parsed = ZGeneratedQuestionBatch.safeParse(result.object);
        results[item.key] = (parsed.success ? parsed.data.questions : [])
          .filter((question) => question.question.trim())
          .slice(0, item.count);
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

export const registerQuestionJobs = () => {
  registerJobHandler(QUESTION_JOB, async (deps, job) => {
    const generationId = (job.payload as { generationId?: string } | null)?.generationId;
    if (!generationId) throw new Error('The question job has no generation id');
    return generate(deps, job, generationId);
  });
};
