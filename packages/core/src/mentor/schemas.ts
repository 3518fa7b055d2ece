import { z } from 'zod';
import { ZProviderId } from '../llm/schemas';

/**
 * The AI Mentor (/aimentor): a review of one agent by a model and the improvements it proposes,
 * each a replacement of one excerpt of one of the agent's editable fields.
 */

/** The agent fields a suggestion may change (the names of the agents API). */
export const MENTOR_FIELDS = ['systemPrompt', 'firstMessage', 'suggestedResponses'] as const;
export const ZMentorField = z.enum(MENTOR_FIELDS);
export type TMentorField = z.infer<typeof ZMentorField>;

export const MENTOR_FIELD_LABELS: Record<TMentorField, string> = {
  systemPrompt: 'Instructions',
  firstMessage: 'First message',
  suggestedResponses: 'Suggested questions',
};

/** The label shown wherever a review written by the offline model is shown. */
export const MENTOR_OFFLINE_LABEL = 'Reviewed by the offline model';

/** At most this many suggestions are kept from one review. */
export const MENTOR_MAX_SUGGESTIONS = 8;
/** Conversation messages (the most recent) a review reads. */
export const MENTOR_RECENT_MESSAGES = 20;
/** Failed questions of the last evaluation run a review reads. */
export const MENTOR_FAILED_RESULTS = 10;

const text = (max: number) => z.string().max(max);

/** One proposal as the model writes it (structured output). */
export const ZMentorDraftSuggestion = z.object({
  title: z.string().trim().min(1).max(120),
  why: z.string().trim().min(1).max(1000),
  field: ZMentorField,
  /**
   * The exact text of the field the change replaces: an excerpt that occurs once in it, or the
   * whole value; empty only when the field is empty. Suggested questions are one a line.
   */
  before: text(20_000),
  after: text(20_000),
});
export type TMentorDraftSuggestion = z.infer<typeof ZMentorDraftSuggestion>;

/** What the reviewer answers: an overall assessment and the proposals. */
export const ZMentorDraft = z.object({
  summary: z.string().trim().min(1).max(2000),
  suggestions: z.array(ZMentorDraftSuggestion).max(20),
});
export type TMentorDraft = z.infer<typeof ZMentorDraft>;

export const ZMentorSuggestionStatus = z.enum(['open', 'applied', 'dismissed']);
export type TMentorSuggestionStatus = z.infer<typeof ZMentorSuggestionStatus>;

export const ZMentorSuggestion = ZMentorDraftSuggestion.extend({
  id: z.string(),
  status: ZMentorSuggestionStatus,
  decidedAt: z.string().nullable(),
});
export type TMentorSuggestion = z.infer<typeof ZMentorSuggestion>;

/** What the review read, in numbers (shown above its suggestions). */
export const ZMentorReviewInputs = z.object({
  documents: z.number().int(),
  messages: z.number().int(),
  evaluation: z
    .object({
      runId: z.string(),
      name: z.string(),
      passRate: z.number().nullable(),
      failed: z.number().int(),
      finishedAt: z.string().nullable(),
    })
    .nullable(),
});
export type TMentorReviewInputs = z.infer<typeof ZMentorReviewInputs>;

export const ZMentorReview = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  provider: ZProviderId,
  model: z.string(),
  /** Written by the offline model: shown with MENTOR_OFFLINE_LABEL. */
  offline: z.boolean(),
  summary: z.string(),
  inputs: ZMentorReviewInputs,
  suggestions: z.array(ZMentorSuggestion),
  /** Suggestions the model proposed that did not match the agent and were left out. */
  dropped: z.number().int(),
  credits: z.number(),
  createdAt: z.string(),
});
export type TMentorReview = z.infer<typeof ZMentorReview>;

export const ZCreateMentorReviewRequest = z.object({
  agentId: z.string().trim().min(1, 'Choose an agent').max(64),
  provider: ZProviderId.optional(),
  model: z.string().trim().min(1).max(200).optional(),
});
export type TCreateMentorReviewRequest = z.infer<typeof ZCreateMentorReviewRequest>;

export const ZMentorReviewListQuery = z.object({
  agentId: z.string().trim().min(1).max(64).optional(),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const ZMentorReviewListResponse = z.object({
  reviews: z.array(ZMentorReview),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TMentorReviewListResponse = z.infer<typeof ZMentorReviewListResponse>;

/** The review with the suggestion decided, and the agent's changed fields when it was applied. */
export const ZMentorDecisionResponse = z.object({
  review: ZMentorReview,
  suggestion: ZMentorSuggestion,
});
export type TMentorDecisionResponse = z.infer<typeof ZMentorDecisionResponse>;

/** What a reviewer reads about an agent (the model's prompt, and the offline reviewer's input). */
export const ZMentorReviewContext = z.object({
  agent: z.object({
    name: z.string(),
    systemPrompt: z.string(),
    firstMessage: z.string(),
    suggestedResponses: z.array(z.string()),
  }),
  documents: z.array(z.string()),
  /** The most recent conversation messages, oldest first. */
  conversation: z.array(
    z.object({ threadId: z.string(), role: z.enum(['user', 'assistant', 'human']), content: z.string() }),
  ),
  evaluation: z
    .object({
      name: z.string(),
      passRate: z.number().nullable(),
      passed: z.number().int(),
      failedCount: z.number().int(),
      failed: z.array(
        z.object({
          question: z.string(),
          successCriteria: z.string(),
          answer: z.string(),
          reasoning: z.string(),
          /** The knowledge document whose text best matches the question, or null: no coverage. */
          knowledgeMatch: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
});
export type TMentorReviewContext = z.infer<typeof ZMentorReviewContext>;
