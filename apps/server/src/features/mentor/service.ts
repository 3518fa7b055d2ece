import {
  applyMentorChange,
  MENTOR_FIELD_LABELS,
  MENTOR_MAX_SUGGESTIONS,
  type MentorAgentFields,
  mentorFieldText,
  mentorFieldValue,
  type TCreateMentorReviewRequest,
  type TMentorDecisionResponse,
  type TMentorDraftSuggestion,
  type TMentorReview,
  type TMentorReviewListResponse,
  type TMentorSuggestion,
  ZMentorDraft,
  ZUpdateAgentRequest,
} from '@switchboard/core';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import { pickModel } from '../agents/builder';
import { publishAgentChange } from '../agents/cache';
import type { AgentRow } from '../agents/repo';
import { agents } from '../agents/schema';
import { requireAgent, updateAgent } from '../agents/service';
import { type RunModelResult, runModel } from '../llm/gateway';
import { REVIEW_CONTEXT_TAG } from '../llm/offline-model';
import { buildReviewContext } from './context';
import { type MentorReviewRow, mentorReviews } from './schema';

/**
 * The AI Mentor: a model (the agency's own provider, or the offline model's fixed rules) reads an
 * agent and proposes changes to its instructions, first message and suggested questions; a
 * person applies them one at a time through the agents feature's own update.
 */

export const MENTOR_SYSTEM = [
  'You are an expert reviewer of AI chat agents for businesses. You get one agent as JSON between',
  `<${REVIEW_CONTEXT_TAG}> tags: its instructions (systemPrompt), firstMessage, suggestedResponses, the names`,
  'of its knowledge documents, its most recent conversation messages and the failed questions of its last',
  'evaluation (knowledgeMatch names the document that covers a question, or is null when none does).',
  'Propose at most 8 concrete, specific improvements the business can apply as they are. For each give:',
  '- title: a short imperative title;',
  '- why: one or two sentences naming the evidence (a failed question, a conversation, a missing rule);',
  '- field: "systemPrompt", "firstMessage" or "suggestedResponses";',
  '- before: text copied EXACTLY from the current field that your change replaces (an excerpt that occurs once,',
  '  or the whole field; "" only when the field is empty). For suggestedResponses use the whole list, one per line;',
  '- after: the replacement text (for suggestedResponses the whole new list, one per line, at most 10).',
  'To add a rule to the instructions, copy their last line as before and give that line plus the new rule as after.',
  'Also write a summary: two or three sentences on how good the agent is and what matters most.',
  'Answer only with the JSON object.',
].join('\n');

/** The context as JSON with every "<" escaped, so no text inside it can close the context's tag. */
const contextJson = (context: unknown) => JSON.stringify(context).replace(/</g, '\\u003c');

const toView = (row: MentorReviewRow, agentName: string): TMentorReview => ({
  id: row.id,
  agentId: row.agentId,
  agentName,
  provider: row.provider,
  model: row.model,
  offline: row.offline,
  summary: row.summary,
  inputs: row.inputs,
  suggestions: row.suggestions,
  dropped: row.dropped,
  credits: row.credits,
  createdAt: row.createdAt.toISOString(),
});

const fieldsOf = (
  agent: Pick<AgentRow, 'systemPrompt' | 'firstMessage' | 'suggestedResponses'>,
): MentorAgentFields => ({
  systemPrompt: agent.systemPrompt,
  firstMessage: agent.firstMessage,
  suggestedResponses: [...agent.suggestedResponses],
});

/** A suggestion is kept when it applies to the agent as it is, changes something and passes the agent's validation. */
const usable = (fields: MentorAgentFields, suggestion: TMentorDraftSuggestion): boolean => {
  const current = mentorFieldText(fields, suggestion.field);
  const next = applyMentorChange(current, suggestion.before, suggestion.after);
  if (next === null || next === current) return false;
  const value = mentorFieldValue(suggestion.field, next);
  if (suggestion.field === 'suggestedResponses' && value.length === 0) return false;
  return ZUpdateAgentRequest.safeParse({ [suggestion.field]: value }).success;
};

const unreadable = () =>
  new AppError(
    'AI_EMPTY_RESPONSE',
    "The model's review could not be read: it did not answer in the expected format. Try again or choose another model.",
  );

export const createReview = async (
  deps: Deps,
  tenant: Tenant,
  userId: string | null,
  body: TCreateMentorReviewRequest,
): Promise<TMentorReview> => {
  const agent = await requireAgent(deps.db, tenant, body.agentId);
  const choice = await pickModel(deps, tenant.accountId, { idea: '', provider: body.provider, model: body.model });
  const { context, inputs } = await buildReviewContext(deps.db, agent);
  const id = newId('mentorReview');
  let result: RunModelResult;
  try {
    result = await runModel(deps, {
      accountId: tenant.accountId,
      subaccountId: tenant.subaccountId,
      choice,
      system: MENTOR_SYSTEM,
      messages: [
        {
          role: 'user',
          content: `Review this agent.\n<${REVIEW_CONTEXT_TAG}>\n${contextJson(context)}\n</${REVIEW_CONTEXT_TAG}>`,
        },
      ],
      temperature: 0.2,
      maxTokens: 4000,
      schema: ZMentorDraft,
      source: 'mentor',
      agentId: agent.id,
      idempotencyKey: `mentor:${id}`,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'AI_EMPTY_RESPONSE') throw unreadable();
    throw error;
  }
  const draft = ZMentorDraft.safeParse(result.object);
  if (!draft.success) throw unreadable();

  // The agent as it is now (it may have been edited while the model was thinking).
  const current = await requireAgent(deps.db, tenant, agent.id);
  const baseline = fieldsOf(current);
  const seen = new Set<string>();
  const kept: TMentorSuggestion[] = [];
  for (const suggestion of draft.data.suggestions) {
    const key = JSON.stringify([suggestion.field, suggestion.before, suggestion.after]);
    if (seen.has(key) || !usable(baseline, suggestion) || kept.length >= MENTOR_MAX_SUGGESTIONS) continue;
    seen.add(key);
    kept.push({ ...suggestion, id: `s${kept.length + 1}`, status: 'open', decidedAt: null });
  }
  const [row] = await deps.db
    .insert(mentorReviews)
    .values({
      id,
      accountId: tenant.accountId,
      subaccountId: tenant.subaccountId,
      agentId: agent.id,
      createdBy: userId,
      provider: result.offline ? 'offline' : choice.provider,
      model: result.model,
      offline: result.offline,
      summary: draft.data.summary,
      inputs,
      suggestions: kept,
      baseline,
      dropped: draft.data.suggestions.length - kept.length,
      credits: result.usage.credits,
    })
    .returning();
  if (!row) throw new Error('The review was not stored');
  return toView(row, current.name);
};

export const listReviews = async (
  db: Db,
  tenant: Tenant,
  query: { agentId?: string; page: number; limit: number },
): Promise<TMentorReviewListResponse> => {
  const where = and(
    eq(mentorReviews.subaccountId, tenant.subaccountId),
    query.agentId ? eq(mentorReviews.agentId, query.agentId) : undefined,
  );
  const [rows, totals] = await Promise.all([
    db
      .select({ review: mentorReviews, agentName: agents.name })
      .from(mentorReviews)
      .innerJoin(agents, eq(agents.id, mentorReviews.agentId))
      .where(where)
      .orderBy(desc(mentorReviews.createdAt), desc(mentorReviews.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(mentorReviews).where(where),
  ]);
  return {
    reviews: rows.map((row) => toView(row.review, row.agentName)),
    total: Number(totals[0]?.total ?? 0),
    page: query.page,
    limit: query.limit,
  };
};

const notFound = () => new AppError('NOT_FOUND', 'The review does not exist or was deleted.');

export const getReview = async (db: Db, tenant: Tenant, reviewId: string): Promise<TMentorReview> => {
  const [row] = await db
    .select({ review: mentorReviews, agentName: agents.name })
    .from(mentorReviews)
    .innerJoin(agents, eq(agents.id, mentorReviews.agentId))
    .where(and(eq(mentorReviews.id, reviewId), eq(mentorReviews.subaccountId, tenant.subaccountId)))
    .limit(1);
  if (!row) throw notFound();
  return toView(row.review, row.agentName);
};

/** The sub-account a review belongs to, or null (the guard's resolver). */
export const reviewSubaccount = async (db: Db, reviewId: string): Promise<string | null> => {
  const [row] = await db
    .select({ subaccountId: mentorReviews.subaccountId })
    .from(mentorReviews)
    .where(eq(mentorReviews.id, reviewId))
    .limit(1);
  return row?.subaccountId ?? null;
};

/** The review row locked for this transaction, and the suggestion asked for. */
const lockSuggestion = async (tx: Tx, tenant: Tenant, reviewId: string, suggestionId: string) => {
  const [review] = await tx
    .select()
    .from(mentorReviews)
    .where(and(eq(mentorReviews.id, reviewId), eq(mentorReviews.subaccountId, tenant.subaccountId)))
    .for('update');
  if (!review) throw notFound();
  const suggestion = review.suggestions.find((candidate) => candidate.id === suggestionId);
  if (!suggestion) throw new AppError('NOT_FOUND', 'The suggestion does not exist in this review.');
  return { review, suggestion };
};

const saveDecision = async (
  tx: Tx,
  review: MentorReviewRow,
  suggestionId: string,
  status: 'applied' | 'dismissed',
  baseline: MentorAgentFields,
) => {
  const decidedAt = new Date().toISOString();
  const suggestions = review.suggestions.map((candidate) =>
    candidate.id === suggestionId ? { ...candidate, status, decidedAt } : candidate,
  );
  const [row] = await tx
    .update(mentorReviews)
    .set({ suggestions, baseline })
    .where(eq(mentorReviews.id, review.id))
    .returning();
  if (!row) throw notFound();
  return row;
};

const decision = (row: MentorReviewRow, agentName: string, suggestionId: string): TMentorDecisionResponse => {
  const review = toView(row, agentName);
  const suggestion = review.suggestions.find((candidate) => candidate.id === suggestionId);
  if (!suggestion) throw notFound();
  return { review, suggestion };
};

/**
 * Applies one suggestion to the agent through the agents feature's update (its validation and
 * limits), in one transaction with the review and the agent locked: a second request for the same
 * suggestion waits, then finds it applied and answers the same. Refused with 409 when the field
 * changed since the review (other than by this review's own applied suggestions).
 */
export const applySuggestion = async (
  deps: Deps,
  tenant: Tenant,
  reviewId: string,
  suggestionId: string,
): Promise<TMentorDecisionResponse> => {
  const outcome = await deps.db.transaction(async (tx) => {
    const { review, suggestion } = await lockSuggestion(tx, tenant, reviewId, suggestionId);
    const [agent] = await tx
      .select()
      .from(agents)
      .where(and(eq(agents.id, review.agentId), eq(agents.subaccountId, tenant.subaccountId)))
      .for('update');
    if (!agent) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
    if (suggestion.status === 'applied') return { row: review, agentName: agent.name };
    if (suggestion.status === 'dismissed') {
      throw new AppError('CONFLICT', 'This suggestion was dismissed. Run a new review to get it again.');
    }
    const label = MENTOR_FIELD_LABELS[suggestion.field];
    const current = mentorFieldText(fieldsOf(agent), suggestion.field);
    if (current !== mentorFieldText(review.baseline, suggestion.field)) {
      throw new AppError(
        'CONFLICT',
        `The agent's ${label.toLowerCase()} changed after this review, so this suggestion was not applied. Review the agent again to get suggestions for its current version.`,
      );
    }
    const next = applyMentorChange(current, suggestion.before, suggestion.after);
    if (next === null) {
      throw new AppError(
        'CONFLICT',
        `This suggestion no longer fits the agent's ${label.toLowerCase()}: an applied suggestion changed the same text. Review the agent again.`,
      );
    }
    const updated = await updateAgent(tx, tenant, agent.id, {
      [suggestion.field]: mentorFieldValue(suggestion.field, next),
    });
    const row = await saveDecision(tx, review, suggestionId, 'applied', fieldsOf(updated));
    return { row, agentName: updated.name };
  });
  await publishAgentChange(deps.bus, outcome.row.agentId);
  return decision(outcome.row, outcome.agentName, suggestionId);
};

/** Dismisses a suggestion (again: the same answer); an applied one stays applied (409). */
export const dismissSuggestion = async (
  deps: Deps,
  tenant: Tenant,
  reviewId: string,
  suggestionId: string,
): Promise<TMentorDecisionResponse> => {
  const outcome = await deps.db.transaction(async (tx) => {
    const { review, suggestion } = await lockSuggestion(tx, tenant, reviewId, suggestionId);
    const [agent] = await tx.select({ name: agents.name }).from(agents).where(eq(agents.id, review.agentId));
    const agentName = agent?.name ?? '';
    if (suggestion.status === 'dismissed') return { row: review, agentName };
    if (suggestion.status === 'applied') {
      throw new AppError('CONFLICT', 'This suggestion was already applied to the agent.');
    }
    return { row: await saveDecision(tx, review, suggestionId, 'dismissed', review.baseline), agentName };
  });
  return decision(outcome.row, outcome.agentName, suggestionId);
};
