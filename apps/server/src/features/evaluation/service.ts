import {
  countConversations,
  type TEvaluationStartPayload,
  type TRunComparison,
  type TRunResults,
  validateRun,
  ZAi1Config,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import { enqueueJob } from '../../platform/jobs';
import { findAgent } from '../agents/repo';
import { ensureCanSpend } from '../billing/ledger';
import type { ModelChoice } from '../llm/gateway';
import { hasUsableKey, noApiKeyError } from '../llm/models';
import { ensureAttackersRunnable } from './attackers/items';
import { validateQuestionChecks } from './checks';
import { EVALUATION_JOB, publishRun } from './engine';
import { parseModelChoice } from './models';
import * as repo from './repo';
import { evaluationRuns } from './schema';
import { findTemplate } from './templates';

export type EvaluationKind = 'chatcompletion' | 'openai-assistants';

const testingModelOf = (payload: TEvaluationStartPayload) =>
  payload.testing_model_for_test_generation || payload.settings.testing_model || '';

/** Finds the agent or model under test; another sub-account's agent is not found. */
const resolveTarget = async (deps: Deps, tenant: Tenant, kind: EvaluationKind, payload: TEvaluationStartPayload) => {
  const agentId = payload.assistant_id || payload.settings.assistant_id || '';
  if (agentId) {
    const agent = await findAgent(deps.db, agentId);
    if (!agent || agent.subaccountId !== tenant.subaccountId) {
      throw new AppError('AGENT_NOT_FOUND', 'Agent not found', { field: 'assistant_id' });
    }
    return { agentId: agent.id, label: agent.name, choice: { provider: agent.provider, model: agent.model } };
  }
  if (kind === 'openai-assistants') {
    throw new AppError('VALIDATION_ERROR', 'Choose the agent to test', { field: 'assistant_id' });
  }
  const config = ZAi1Config.safeParse(payload.ai1_config);
  if (!config.success || !config.data.model.trim()) {
    throw new AppError('VALIDATION_ERROR', 'Choose the model to test', { field: 'ai1_config.model' });
  }
  return { agentId: null, label: config.data.model, choice: parseModelChoice(config.data.model) };
};

/**
 * A run never falls back to the offline model on its own: the testing model and the model under
 * test each need a usable key, unless the offline model was picked by name. Answers whether the
 * run is offline (labelled wherever its results are shown).
 */
export const ensureRunnable = async (
  deps: Deps,
  accountId: string,
  testing: ModelChoice,
  target: ModelChoice,
): Promise<{ offline: boolean }> => {
  for (const [choice, field] of [
    [testing, 'testing_model'],
    [target, 'model'],
  ] as const) {
    if (choice.provider !== 'offline' && !(await hasUsableKey(deps, accountId, choice))) {
      throw noApiKeyError(choice.provider, field);
    }
  }
  return { offline: testing.provider === 'offline' || target.provider === 'offline' };
};

/** Validates the start payload (section 5 rules), stores the run and queues its job. */
export const startRun = async (
  deps: Deps,
  tenant: Tenant,
  userId: string,
  kind: EvaluationKind,
  payload: TEvaluationStartPayload,
) => {
  const testingModel = testingModelOf(payload);
  const problem = validateRun({ testingModel, ...payload });
  if (problem) throw new AppError('VALIDATION_ERROR', problem.message, { field: problem.field });
  validateQuestionChecks({
    customQuestions: payload.customQuestions,
    complianceQuestions: payload.complianceQuestions,
    promptHackingQuestions: payload.promptHackingQuestions,
  });
  const target = await resolveTarget(deps, tenant, kind, payload);
  const runnable = await ensureRunnable(deps, tenant.accountId, parseModelChoice(testingModel), target.choice);
  const attackers = await ensureAttackersRunnable(deps, tenant.accountId, payload, testingModel);
  const offline = runnable.offline || attackers.offline;
  await ensureCanSpend(deps, tenant.accountId, 0);

  const id = newId('evaluation');
  const name =
    payload.settings.evaluationName?.trim() ||
    `${target.label} · ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
  // The run and its job are written together: a run never waits without a job to run it.
  return deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(evaluationRuns)
      .values({
        id,
        evaluationId: payload.evaluationId,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        createdBy: userId,
        name,
        type: kind,
        agentId: target.agentId,
        targetLabel: target.label,
        templateId: payload.templateId ?? null,
        testingModel,
        offline,
        payload,
        total: countConversations({ testingModel, ...payload }),
      })
      .onConflictDoNothing()
      .returning();
    const row = inserted[0];
    if (!row) {
      throw new AppError('CONFLICT', 'An evaluation with this evaluationId was already started', {
        field: 'evaluationId',
      });
    }
    const jobId = await enqueueJob(
      deps,
      { type: EVALUATION_JOB, payload: { runId: id }, accountId: tenant.accountId, subaccountId: tenant.subaccountId },
      tx,
    );
    await tx.update(evaluationRuns).set({ jobId }).where(eq(evaluationRuns.id, id));
    return repo.runView(tx, { ...row, jobId });
  });
};

/** Starts a run of a saved template against an agent (the CLI and CI entry point). */
export const startRunFromTemplate = async (
  deps: Deps,
  tenant: Tenant,
  userId: string,
  input: { templateId: string; agentId?: string; model?: string; testingModel?: string },
) => {
  if (Boolean(input.agentId) === Boolean(input.model)) {
    throw new AppError('VALIDATION_ERROR', 'Give either agentId or model', { field: 'agentId' });
  }
  const template = await findTemplate(deps, tenant.subaccountId, input.templateId);
  if (!template) throw new AppError('NOT_FOUND', 'Template not found', { field: 'templateId' });
  const data = template.templateData;
  const settings = data.settings;
  const payload: TEvaluationStartPayload = {
    evaluationId: newId('evaluation'),
    ai1_config: input.model
      ? {
          model: input.model,
          temperature: settings.temperature ?? 1,
          max_tokens: settings.maxTokens ?? 2048,
          top_p: settings.topP ?? 1,
          frequency_penalty: settings.frequencyPenalty ?? 0,
          presence_penalty: settings.presencePenalty ?? 0,
          stop: settings.stopSequences ?? [],
        }
      : {},
    ...(input.agentId ? { assistant_id: input.agentId } : {}),
    initial_message: data.initialMessage,
    shortuserDescription: data.shortuserDescription,
    conversationFlowInput: data.conversationFlowInput,
    hallucinationInstruction: data.hallucinationInstruction,
    hallucinationChoice: data.hallucinationChoice,
    customQuestionInstruction: '',
    complianceQuestionInstruction: '',
    promptHackingQuestionInstruction: '',
    subItemValues: {},
    subItemSuccessCriteriaMap: {},
    checkedItems: {
      'custom-questions': data.customQuestions.length > 0,
      compliance: data.complianceQuestions.length > 0,
      'prompt-hacking': data.promptHackingQuestions.length > 0,
    },
    settings: {
      ...data.settings,
      ...(input.model ? { assistant_id: '' } : {}),
      evaluationName: `${template.templateName} (CLI)`,
    },
    customQuestions: data.customQuestions,
    complianceQuestions: data.complianceQuestions,
    promptHackingQuestions: data.promptHackingQuestions,
    testing_model_for_test_generation: input.testingModel ?? data.testing_model ?? '',
    templateId: template._id,
  };
  return startRun(deps, tenant, userId, input.model ? 'chatcompletion' : 'openai-assistants', payload);
};

export const getRunOr404 = async (deps: Deps, subaccountId: string, runId: string) => {
  const row = await repo.findRunInSubaccount(deps.db, subaccountId, runId);
  if (!row) throw new AppError('NOT_FOUND', 'Evaluation run not found');
  return row;
};

export const cancelRun = async (deps: Deps, subaccountId: string, runId: string) => {
  await getRunOr404(deps, subaccountId, runId);
  const moved = await repo.moveRun(deps.db, runId, ['queued', 'running'], {
    status: 'cancelled',
    finishedAt: new Date(),
  });
  const row = moved ?? (await getRunOr404(deps, subaccountId, runId));
  const view = await repo.runView(deps.db, row);
  if (moved) await publishRun(deps, runId, { type: 'status', run: view });
  return view;
};

const CATEGORIES = ['custom', 'compliance', 'promptHacking'] as const;

export const getResults = async (deps: Deps, subaccountId: string, runId: string): Promise<TRunResults> => {
  const row = await getRunOr404(deps, subaccountId, runId);
  const rows = await repo.listConversations(deps.db, runId);
  const run = await repo.runView(deps.db, row);
  const categories = CATEGORIES.map((category) => {
    const mine = rows.filter((item) => item.category === category);
    const passed = mine.filter((item) => item.outcome === 'passed').length;
    const errors = mine.filter((item) => item.outcome === 'error').length;
    const graded = mine.length - errors;
    return {
      category,
      total: mine.length,
      passed,
      failed: graded - passed,
      errors,
      passRate: graded ? passed / graded : null,
    };
  }).filter((item) => item.total > 0);
  const byQuestion = new Map<string, TRunResults['questions'][number]>();
  for (const row of rows) {
    const entry = byQuestion.get(row.questionKey) ?? {
      questionKey: row.questionKey,
      category: row.category,
      question: row.originalQuestion,
      total: 0,
      passed: 0,
      failed: 0,
      errors: 0,
    };
    entry.total += 1;
    if (row.outcome === 'passed') entry.passed += 1;
    else if (row.outcome === 'failed') entry.failed += 1;
    else entry.errors += 1;
    byQuestion.set(row.questionKey, entry);
  }
  // Failures first, then errors, then passes.
  const rank = { failed: 0, error: 1, passed: 2 } as const;
  const conversations = [...rows]
    .sort((a, b) => rank[a.outcome] - rank[b.outcome] || a.position - b.position || a.variation - b.variation)
    .map(repo.toConversationView);
  return { run, categories, questions: [...byQuestion.values()], conversations };
};

/** Matches two runs' conversations by question and variation and says which changed. */
export const compareRuns = async (
  deps: Deps,
  subaccountId: string,
  baseId: string,
  otherId: string,
): Promise<TRunComparison> => {
  const [baseRow, otherRow] = await Promise.all([
    getRunOr404(deps, subaccountId, baseId),
    getRunOr404(deps, subaccountId, otherId),
  ]);
  const [baseItems, otherItems, base, other] = await Promise.all([
    repo.listConversations(deps.db, baseId),
    repo.listConversations(deps.db, otherId),
    repo.runView(deps.db, baseRow),
    repo.runView(deps.db, otherRow),
  ]);
  const key = (item: { questionKey: string; variation: number }) => `${item.questionKey}#${item.variation}`;
  const before = new Map(baseItems.map((item) => [key(item), item]));
  const after = new Map(otherItems.map((item) => [key(item), item]));
  const keys = [...new Set([...before.keys(), ...after.keys()])];
  const rows = keys.map((k) => {
    const a = before.get(k);
    const b = after.get(k);
    const any = (b ?? a) as repo.ConversationRow;
    // An error is not a verdict: a question that errored on either side counts as unchanged.
    const change: TRunComparison['rows'][number]['change'] = !a
      ? 'added'
      : !b
        ? 'removed'
        : a.outcome === b.outcome || a.outcome === 'error' || b.outcome === 'error'
          ? 'same'
          : a.outcome === 'passed'
            ? 'pass-to-fail'
            : 'fail-to-pass';
    return {
      questionKey: any.questionKey,
      category: any.category,
      variation: any.variation,
      question: any.originalQuestion,
      before: a ? a.outcome === 'passed' : null,
      after: b ? b.outcome === 'passed' : null,
      beforeOutcome: a?.outcome ?? null,
      afterOutcome: b?.outcome ?? null,
      change,
    };
  });
  const order = { 'pass-to-fail': 0, 'fail-to-pass': 1, added: 2, removed: 3, same: 4 } as const;
  rows.sort(
    (x, y) =>
      order[x.change] - order[y.change] || x.questionKey.localeCompare(y.questionKey) || x.variation - y.variation,
  );
  return {
    base,
    other,
    rows,
    summary: {
      passToFail: rows.filter((row) => row.change === 'pass-to-fail').length,
      failToPass: rows.filter((row) => row.change === 'fail-to-pass').length,
      same: rows.filter((row) => row.change === 'same').length,
      added: rows.filter((row) => row.change === 'added').length,
      removed: rows.filter((row) => row.change === 'removed').length,
    },
  };
};
