import {
  CATEGORY_CHECK_KEYS,
  QUESTION_CATEGORIES,
  type TEvaluationRun,
  type TEvaluationStartPayload,
  type TRunEvent,
  type TRunProgress,
  type TRunStatus,
  ZAi1Config,
} from '@switchboard/core';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { continueLater, defineJob } from '../../platform/jobs';
import { agentBrief, formatAgentBrief } from './agent-brief';
import { adaptiveContext, adaptiveItems } from './attackers/items';
import { runAdaptiveAttack } from './attackers/run-attack';
import { type ConversationProgress, type RunContext, runConversation, type WorkItem } from './conversation';
import { parseModelChoice } from './models';
import * as repo from './repo';
import { targetEmbedder } from './semantic-check';

export const EVALUATION_JOB = 'evaluation.run';
export const runChannel = (runId: string) => `evaluation:${runId}`;

/** Every conversation of a run, in order, made lazily so a large run holds no list in memory. */
export function* workItems(payload: TEvaluationStartPayload): Generator<WorkItem> {
  let position = 0;
  for (const category of QUESTION_CATEGORIES) {
    if (!payload.checkedItems[CATEGORY_CHECK_KEYS[category]]) continue;
    const list =
      category === 'custom'
        ? payload.customQuestions
        : category === 'compliance'
          ? payload.complianceQuestions
          : payload.promptHackingQuestions;
    for (const question of list) {
      position += 1;
      if (!question.selected || !question.text.trim()) continue;
      for (let variation = 0; variation <= question.variations; variation += 1) {
        yield {
          questionKey: `${category}:${question.id}`,
          category,
          position,
          variation,
          question: question.text,
          successCriteria: question.successCriteria,
          whenToAsk: question.whenToAsk,
          checks: question.checks,
          passThreshold: question.passThreshold,
          replay: question.replay,
          plantedDocument: question.plantedDocument,
        };
      }
    }
  }
  yield* adaptiveItems(payload, position);
}

export const publishRun = (deps: Deps, runId: string, event: TRunEvent) =>
  deps.bus.publish(runChannel(runId), event).catch((err) => deps.log.warn({ err, runId }, 'run event not published'));

/**
 * Errors that stop the whole run rather than one conversation: credits, plan, and the provider key
 * (missing, refused, or out of quota), since every later call would fail the same way.
 */
export const stopsRun = (error: unknown) =>
  error instanceof AppError &&
  ([401, 402, 403].includes(error.status) ||
    ['API_KEY_INVALID', 'API_KEY_NOT_FOUND', 'OPENAI_AUTH_FAILED'].includes(error.code) ||
    error.reason === 'quota_exceeded');

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'The conversation failed');

/** The app error of a failure, as stored on a conversation that ended in error. */
const errorFields = (error: unknown) => ({
  error: messageOf(error),
  errorCode: error instanceof AppError ? error.code : 'AI_SERVICE_ERROR',
  errorReason: error instanceof AppError ? (error.reason ?? null) : null,
});

const targetOf = (run: repo.RunRow, payload: TEvaluationStartPayload): RunContext['target'] => {
  if (run.agentId) return { kind: 'agent', agentId: run.agentId };
  const config = ZAi1Config.parse(payload.ai1_config);
  return {
    kind: 'model',
    choice: parseModelChoice(config.model),
    system: payload.settings.prompt ?? '',
    temperature: config.temperature,
    maxTokens: config.max_tokens,
  };
};

/**
 * Runs (or resumes) an evaluation: skips the conversations already stored, keeps
 * EVAL_CONCURRENCY conversations in flight, stores each one as soon as it is graded and
 * publishes it on the run's channel. Safe to re-run after a crash: rows are unique per
 * (run, question, variation) and a duplicate insert is ignored.
 */
/** A job of a run starts no new conversation after this long: it hands the rest back to the queue. */
export const EVALUATION_STEP_MS = 60_000;
/** How often a running step reads its run's status, so a cancel reaches it from any process. */
const STATUS_CHECK_MS = 1_000;

export interface RunStep {
  /** The job's signal: aborted when the process stops; the step then starts nothing new. */
  signal?: AbortSignal;
  stepMs?: number;
}

/**
 * Runs the conversations of a run that are not stored yet, for one step: conversations in flight
 * finish and are stored, then, with work left, the rest is handed back to the queue.
 */
export const runEvaluation = async (deps: Deps, runId: string, step: RunStep = {}) => {
  const stepEnds = Date.now() + (step.stepMs ?? EVALUATION_STEP_MS);
  const row = await repo.findRun(deps.db, runId);
  if (!row || ['completed', 'failed', 'cancelled'].includes(row.status)) return { skipped: true };
  const started = await repo.moveRun(deps.db, runId, ['queued', 'running'], {
    status: 'running',
    startedAt: row.startedAt ?? new Date(),
  });
  if (!started) return { skipped: true };
  const payload = row.payload as TEvaluationStartPayload;
  const finished = await repo.finishedKeys(deps.db, runId);
  let done = finished.keys.size;
  let passed = finished.passed;
  let errors = finished.errors;
  const progress = () => repo.progressOf(row.total, done, passed, errors);
  const brief = row.agentId
    ? await agentBrief(deps, row.subaccountId, row.agentId)
    : formatAgentBrief({ instructions: payload.settings.prompt ?? '', firstMessage: payload.initial_message });
  const view = (status: TEvaluationRun['status'] = 'running'): TEvaluationRun => ({
    ...repo.toRunView({ ...started, status }, progress()),
  });
  await publishRun(deps, runId, { type: 'status', run: view() });

  const controller = new AbortController();
  const unsubscribe = deps.bus.subscribe(runChannel(runId), (event) => {
    const status = (event as TRunEvent).run?.status;
    if (status === 'cancelled' || status === 'failed') controller.abort(new Error(`Run ${status}`));
  });
  // The bus carries a cancel at once (across processes with Redis); the database, read about
  // once a second, carries it without Redis too.
  let checkedAt = Date.now();
  const checkStatus = async () => {
    if (Date.now() - checkedAt < STATUS_CHECK_MS || controller.signal.aborted) return;
    checkedAt = Date.now();
    const current = await repo.findRun(deps.db, runId);
    if (current && current.status !== 'running') controller.abort(new Error(`Run ${current.status}`));
  };
  let handedBack = false;
  const stepOver = () => {
    if (step.signal?.aborted || Date.now() > stepEnds) handedBack = true;
    return handedBack;
  };
  const ctx: RunContext = {
    deps,
    runId,
    origin: 'evaluation',
    accountId: row.accountId,
    subaccountId: row.subaccountId,
    testing: parseModelChoice(row.testingModel),
    initialMessage: payload.initial_message,
    userDescription: payload.shortuserDescription,
    conversationFlow: payload.conversationFlowInput,
    hallucinationInstruction: payload.hallucinationInstruction,
    hallucinationCheck: Boolean(payload.hallucinationChoice || payload.hallucinationInstruction.trim()),
    followUpTurns: payload.settings.followUpTurns ?? 0,
    agentBrief: brief,
    target: targetOf(row, payload),
    maxRetries: deps.env.EVAL_MAX_RETRIES,
    signal: controller.signal,
    adaptive: adaptiveContext(payload, row.testingModel),
  };
  // Only a run with semantic similarity checks looks up the agent's embedding model.
  const semantic = [payload.customQuestions, payload.complianceQuestions, payload.promptHackingQuestions].some((list) =>
    list.some((question) => question.checks?.some((check) => check.type === 'semantic_similarity')),
  );
  if (semantic) ctx.embedder = await targetEmbedder(deps, row.accountId, ctx.target);

  let fatal: unknown = null;
  const items = workItems(payload);
  const next = (): WorkItem | undefined => {
    for (;;) {
      const item = items.next();
      if (item.done) return undefined;
      if (!finished.keys.has(`${item.value.questionKey}#${item.value.variation}`)) return item.value;
    }
  };

  // The offline model answers in-process with nothing to wait for: running many of its
  // conversations at once only queues them on the database and stalls the app's other requests,
  // so once a run proves offline, two workers carry on.
  let offline = false;
  const worker = async (_: unknown, index: number) => {
    for (
      let item = stepOver() ? undefined : next();
      item && !controller.signal.aborted;
      item = (offline && index >= 2) || stepOver() ? undefined : next()
    ) {
      // Yield to the event loop: with in-process answers (the offline model, PGlite) a run can
      // otherwise proceed on microtasks alone and starve every other request until it ends.
      await new Promise((resolve) => setImmediate(resolve));
      await checkStatus();
      if (controller.signal.aborted) return;
      let record: Parameters<typeof repo.insertConversation>[1];
      const base = {
        id: newId('evaluationConversation'),
        runId,
        questionKey: item.questionKey,
        category: item.category,
        position: item.position,
        variation: item.variation,
        originalQuestion: item.question,
        successCriteria: item.successCriteria,
        whenToAsk: item.whenToAsk,
      };
      const reached: ConversationProgress = { question: item.question, transcript: [] };
      const started = performance.now();
      let stop: unknown = null;
      try {
        const outcome = item.adaptive
          ? await runAdaptiveAttack(ctx, item, reached)
          : await runConversation(ctx, item, reached);
        offline = outcome.offline;
        record = {
          ...base,
          question: outcome.question,
          transcript: outcome.transcript,
          answer: outcome.answer,
          outcome: outcome.verdict.passed ? 'passed' : 'failed',
          passed: outcome.verdict.passed,
          score: outcome.verdict.score,
          reasoning: outcome.verdict.reasoning,
          checks: outcome.checks,
          attack: outcome.attack ?? null,
          error: null,
          durationMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        if (controller.signal.aborted) return;
        // Not the agent's failure: stored as an error, with the transcript it reached, and left
        // out of the pass rate. A key or credit failure also stops the run.
        if (stopsRun(error)) stop = error;
        record = {
          ...base,
          question: reached.question,
          transcript: reached.transcript,
          answer: reached.transcript.at(-1)?.role === 'assistant' ? (reached.transcript.at(-1)?.content ?? '') : '',
          outcome: 'error',
          passed: false,
          score: 0,
          reasoning: '',
          attack: reached.attack ?? null,
          ...errorFields(error),
          durationMs: Math.round(performance.now() - started),
        };
      }
      if (!controller.signal.aborted && (await repo.insertConversation(deps.db, record))) {
        done += 1;
        if (record.outcome === 'passed') passed += 1;
        if (record.outcome === 'error') errors += 1;
        const stored = {
          errorCode: null,
          errorReason: null,
          checks: [],
          ...record,
          createdAt: new Date(),
          error: record.error ?? null,
        };
        await publishRun(deps, runId, {
          type: 'conversation',
          run: view(),
          conversation: repo.toConversationView(stored as repo.ConversationRow),
        });
      }
      if (stop && !fatal) {
        fatal = stop;
        controller.abort(stop);
        return;
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: deps.env.EVAL_CONCURRENCY }, worker));
  } finally {
    unsubscribe();
  }

  if (fatal) {
    await endRun(
      deps,
      runId,
      ['running'],
      {
        status: 'failed',
        error: messageOf(fatal),
        errorReason: fatal instanceof AppError ? (fatal.reason ?? fatal.code) : null,
      },
      progress(),
    );
    return { status: 'failed' };
  }
  if (controller.signal.aborted) return { status: 'cancelled' };
  if (handedBack && next()) return continueLater();
  const completed = await endRun(deps, runId, ['running'], { status: 'completed' }, progress());
  return { status: completed ? 'completed' : 'stopped', done, passed };
};

/**
 * Moves a run that is in one of `from` to its end (completed or failed) and, in the same
 * transaction, tells what reacts (the `evaluation.completed` webhook event): the run's end and its
 * announcement commit together. Its screen hears the new status. Null when the run was not in `from`.
 */
export const endRun = async (
  deps: Deps,
  runId: string,
  from: TRunStatus[],
  to: { status: 'completed' | 'failed'; error?: string; errorReason?: string | null },
  progress: TRunProgress,
) => {
  const ended = await deps.db.transaction(async (tx) => {
    const run = await repo.moveRun(tx, runId, from, { ...to, finishedAt: new Date() });
    if (!run) return null;
    await publish(
      deps,
      'evaluation.finished',
      {
        subaccountId: run.subaccountId,
        runId: run.id,
        evaluationId: run.evaluationId,
        name: run.name,
        agentId: run.agentId,
        status: run.status,
        offline: run.offline,
        testingModel: run.testingModel,
        error: run.error,
        progress,
      },
      tx,
    );
    return { run, progress };
  });
  if (ended) await publishRun(deps, runId, { type: 'status', run: repo.toRunView(ended.run, ended.progress) });
  return ended?.run ?? null;
};

/** Runs an evaluation's conversations and checks. */
export const evaluationJob = defineJob({
  type: EVALUATION_JOB,
  queue: 'evaluation',
  schema: z.object({ runId: z.string() }),
  // A step handed back is not an attempt, but a process that dies mid-step is: a run spans many
  // steps, so it may outlive several restarts of the processes running it.
  maxAttempts: 20,
  handler: (deps, job) => runEvaluation(deps, job.payload.runId, { signal: job.signal }),
});
