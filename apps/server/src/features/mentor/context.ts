import {
  MENTOR_FAILED_RESULTS,
  MENTOR_RECENT_MESSAGES,
  type TMentorReviewContext,
  type TMentorReviewInputs,
  terms,
} from '@switchboard/core';
import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AgentRow } from '../agents/repo';
import { messages, threads } from '../conversations/schema';
import { evaluationConversations, evaluationRuns } from '../evaluation/schema';
import { retrieveKnowledge } from '../knowledge/retrieve';
import { knowledgeDocuments } from '../knowledge/schema';

/**
 * What the mentor reads about an agent: its editable fields, the titles of its knowledge
 * documents, its most recent conversation messages (evaluation conversations left out) and the
 * last finished evaluation run with its failed questions, each checked against the knowledge.
 */

const MAX_DOCUMENTS = 50;
const MAX_MESSAGE_CHARS = 1000;
const MAX_RESULT_CHARS = 600;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A question is covered when the best-matching chunk holds at least half of its words. */
const knowledgeMatchFor = async (db: Db, agentId: string, question: string): Promise<string | null> => {
  const wanted = [...new Set(terms(question))];
  if (!wanted.length) return null;
  const [best] = await retrieveKnowledge(db, agentId, question, 1);
  if (!best) return null;
  const present = new Set(terms(best.excerpt));
  const found = wanted.filter((term) => present.has(term)).length;
  return found * 2 >= wanted.length ? best.name : null;
};

const lastEvaluation = async (db: Db, agent: AgentRow) => {
  const [run] = await db
    .select({ id: evaluationRuns.id, name: evaluationRuns.name, finishedAt: evaluationRuns.finishedAt })
    .from(evaluationRuns)
    .where(
      and(
        eq(evaluationRuns.subaccountId, agent.subaccountId),
        eq(evaluationRuns.agentId, agent.id),
        eq(evaluationRuns.status, 'completed'),
      ),
    )
    .orderBy(desc(evaluationRuns.finishedAt), desc(evaluationRuns.createdAt))
    .limit(1);
  if (!run) return null;
  const [outcomes, failed] = await Promise.all([
    db
      .select({ outcome: evaluationConversations.outcome, total: count() })
      .from(evaluationConversations)
      .where(eq(evaluationConversations.runId, run.id))
      .groupBy(evaluationConversations.outcome),
    db
      .select({
        question: evaluationConversations.question,
        successCriteria: evaluationConversations.successCriteria,
        answer: evaluationConversations.answer,
        reasoning: evaluationConversations.reasoning,
      })
      .from(evaluationConversations)
      .where(and(eq(evaluationConversations.runId, run.id), eq(evaluationConversations.outcome, 'failed')))
      .orderBy(asc(evaluationConversations.position), asc(evaluationConversations.variation))
      .limit(MENTOR_FAILED_RESULTS),
  ]);
  const passed = Number(outcomes.find((row) => row.outcome === 'passed')?.total ?? 0);
  const failedCount = Number(outcomes.find((row) => row.outcome === 'failed')?.total ?? 0);
  const graded = passed + failedCount;
  const failedResults = await Promise.all(
    failed.map(async (row) => ({
      question: cut(row.question, MAX_RESULT_CHARS),
      successCriteria: cut(row.successCriteria, MAX_RESULT_CHARS),
      answer: cut(row.answer, MAX_RESULT_CHARS),
      reasoning: cut(row.reasoning, MAX_RESULT_CHARS),
      knowledgeMatch: await knowledgeMatchFor(db, agent.id, row.question),
    })),
  );
  return {
    run,
    evaluation: {
      name: run.name,
      passRate: graded ? Math.round((passed / graded) * 1000) / 1000 : null,
      passed,
      failedCount,
      failed: failedResults,
    },
  };
};

export const buildReviewContext = async (
  db: Db,
  agent: AgentRow,
): Promise<{ context: TMentorReviewContext; inputs: TMentorReviewInputs }> => {
  const [documents, recent, evaluation] = await Promise.all([
    db
      .select({ name: knowledgeDocuments.name })
      .from(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.agentId, agent.id),
          eq(knowledgeDocuments.subaccountId, agent.subaccountId),
          eq(knowledgeDocuments.ready, true),
        ),
      )
      .orderBy(asc(knowledgeDocuments.createdAt))
      .limit(MAX_DOCUMENTS),
    db
      .select({ threadId: messages.threadId, role: messages.role, content: messages.content })
      .from(messages)
      .innerJoin(threads, eq(threads.id, messages.threadId))
      .where(
        and(
          eq(threads.subaccountId, agent.subaccountId),
          eq(threads.agentId, agent.id),
          ne(threads.channel, 'evaluation'),
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(MENTOR_RECENT_MESSAGES),
    lastEvaluation(db, agent),
  ]);
  const conversation = recent
    .reverse()
    .map((message) => ({ ...message, content: cut(message.content, MAX_MESSAGE_CHARS) }));
  const context: TMentorReviewContext = {
    agent: {
      name: agent.name,
      systemPrompt: agent.systemPrompt,
      firstMessage: agent.firstMessage,
      suggestedResponses: agent.suggestedResponses,
    },
    documents: documents.map((document) => document.name),
    conversation,
    evaluation: evaluation?.evaluation ?? null,
  };
  const inputs: TMentorReviewInputs = {
    documents: documents.length,
    messages: conversation.length,
    evaluation: evaluation
      ? {
          runId: evaluation.run.id,
          name: evaluation.run.name,
          passRate: evaluation.evaluation.passRate,
          failed: evaluation.evaluation.failedCount,
          finishedAt: evaluation.run.finishedAt?.toISOString() ?? null,
        }
      : null,
  };
  return { context, inputs };
};
