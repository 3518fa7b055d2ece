import type {
  TCheckResult,
  TEvaluationConversation,
  TEvaluationRun,
  TRunProgress,
  TRunStatus,
} from '@switchboard/core';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { evaluationConversations, evaluationRuns } from './schema';

export type RunRow = typeof evaluationRuns.$inferSelect;
export type ConversationRow = typeof evaluationConversations.$inferSelect;

const emptyProgress = (total: number): TRunProgress => ({
  total,
  done: 0,
  passed: 0,
  failed: 0,
  errors: 0,
  passRate: null,
});

/** Counts of a run; the pass rate is over graded conversations only (errors are left out). */
export const progressOf = (total: number, done: number, passed: number, errors = 0): TRunProgress => {
  const graded = done - errors;
  return { total, done, passed, failed: graded - passed, errors, passRate: graded > 0 ? passed / graded : null };
};

/** Done and passed counts of several runs in one query. */
export const progressByRun = async (db: Db | Tx, runs: { id: string; total: number }[]) => {
  const map = new Map<string, TRunProgress>(runs.map((run) => [run.id, emptyProgress(run.total)]));
  if (!runs.length) return map;
  const rows = await db
    .select({
      runId: evaluationConversations.runId,
      done: count(),
      passed: sql<number>`count(*) filter (where ${evaluationConversations.outcome} = 'passed')`.mapWith(Number),
      errors: sql<number>`count(*) filter (where ${evaluationConversations.outcome} = 'error')`.mapWith(Number),
    })
    .from(evaluationConversations)
    .where(
      inArray(
        evaluationConversations.runId,
        runs.map((run) => run.id),
      ),
    )
    .groupBy(evaluationConversations.runId);
  for (const row of rows) {
    const total = map.get(row.runId)?.total ?? 0;
    map.set(row.runId, progressOf(total, row.done, row.passed, row.errors));
  }
  return map;
};

export const toRunView = (row: RunRow, progress: TRunProgress): TEvaluationRun => ({
  id: row.id,
  evaluationId: row.evaluationId,
  name: row.name,
  type: row.type,
  agentId: row.agentId,
  targetLabel: row.targetLabel,
  templateId: row.templateId,
  testingModel: row.testingModel,
  offline: row.offline,
  status: row.status,
  error: row.error,
  errorReason: row.errorReason,
  progress,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

export const toConversationView = (row: ConversationRow): TEvaluationConversation => ({
  id: row.id,
  questionKey: row.questionKey,
  category: row.category,
  variation: row.variation,
  question: row.question,
  originalQuestion: row.originalQuestion,
  successCriteria: row.successCriteria,
  whenToAsk: row.whenToAsk,
  transcript: row.transcript,
  answer: row.answer,
  outcome: row.outcome,
  passed: row.outcome === 'passed',
  score: row.score,
  reasoning: row.reasoning,
  error: row.error,
  errorCode: row.errorCode,
  errorReason: row.errorReason,
  checks: row.checks as TCheckResult[],
  durationMs: row.durationMs ?? null,
  attack: row.attack ?? null,
  createdAt: row.createdAt.toISOString(),
});

export const findRun = async (db: Db, runId: string): Promise<RunRow | null> => {
  const rows = await db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)).limit(1);
  return rows[0] ?? null;
};

export const findRunInSubaccount = async (db: Db, subaccountId: string, runId: string) => {
  const rows = await db
    .select()
    .from(evaluationRuns)
    .where(and(eq(evaluationRuns.id, runId), eq(evaluationRuns.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const runView = async (db: Db | Tx, row: RunRow): Promise<TEvaluationRun> => {
  const progress = await progressByRun(db, [row]);
  return toRunView(row, progress.get(row.id) ?? emptyProgress(row.total));
};

export const listRuns = async (
  db: Db,
  input: { subaccountId: string; agentId?: string; templateId?: string; page: number; limit: number },
) => {
  const where = and(
    eq(evaluationRuns.subaccountId, input.subaccountId),
    input.agentId ? eq(evaluationRuns.agentId, input.agentId) : undefined,
    input.templateId ? eq(evaluationRuns.templateId, input.templateId) : undefined,
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(evaluationRuns)
      .where(where)
      .orderBy(desc(evaluationRuns.createdAt))
      .limit(input.limit)
      .offset((input.page - 1) * input.limit),
    db.select({ total: count() }).from(evaluationRuns).where(where),
  ]);
  const progress = await progressByRun(db, rows);
  return {
    runs: rows.map((row) => toRunView(row, progress.get(row.id) ?? emptyProgress(row.total))),
    total: totals[0]?.total ?? 0,
  };
};

export const listConversations = async (db: Db, runId: string) =>
  db
    .select()
    .from(evaluationConversations)
    .where(eq(evaluationConversations.runId, runId))
    .orderBy(evaluationConversations.position, evaluationConversations.variation);

/** Keys of the conversations a run already finished: `questionKey#variation`. */
export const finishedKeys = async (db: Db, runId: string) => {
  const rows = await db
    .select({
      key: evaluationConversations.questionKey,
      variation: evaluationConversations.variation,
      outcome: evaluationConversations.outcome,
    })
    .from(evaluationConversations)
    .where(eq(evaluationConversations.runId, runId));
  return {
    keys: new Set(rows.map((row) => `${row.key}#${row.variation}`)),
    passed: rows.filter((row) => row.outcome === 'passed').length,
    errors: rows.filter((row) => row.outcome === 'error').length,
  };
};

/**
 * Stores a finished conversation while its run is still running; false when the run was
 * cancelled or failed meanwhile, or the row was already stored (a re-run of the same work).
 * The run row is read FOR SHARE, so a cancel waits for an insert in flight and every insert
 * after the cancel sees it: nothing is stored once the cancel has answered.
 */
export const insertConversation = (db: Db, row: typeof evaluationConversations.$inferInsert) =>
  db.transaction(async (tx) => {
    const live = await tx
      .select({ id: evaluationRuns.id })
      .from(evaluationRuns)
      .where(and(eq(evaluationRuns.id, row.runId), eq(evaluationRuns.status, 'running')))
      .for('share');
    if (live.length === 0) return false;
    const inserted = await tx
      .insert(evaluationConversations)
      .values(row)
      .onConflictDoNothing({
        target: [evaluationConversations.runId, evaluationConversations.questionKey, evaluationConversations.variation],
      })
      .returning({ id: evaluationConversations.id });
    return inserted.length > 0;
  });

/** Moves a run to a status if it is in one of `from`; returns the updated row or null. */
export const moveRun = async (
  db: Db | Tx,
  runId: string,
  from: TRunStatus[],
  to: { status: TRunStatus; error?: string | null; errorReason?: string | null; startedAt?: Date; finishedAt?: Date },
) => {
  const rows = await db
    .update(evaluationRuns)
    .set(to)
    .where(and(eq(evaluationRuns.id, runId), inArray(evaluationRuns.status, from)))
    .returning();
  return rows[0] ?? null;
};
