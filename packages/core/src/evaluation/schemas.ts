import { z } from 'zod';
import { ZToolCallView } from '../conversations/schemas';
import { ZAdaptiveAttack, ZAdaptiveAttackSettings } from './adaptive';
import { CHECKS_PER_QUESTION_MAX, REFERENCE_MAX, REPLAY_TURNS_MAX, ZCheckResult, ZQuestionCheck } from './checks';
import {
  CUSTOM_CATEGORY_COUNT_CAP,
  FOLLOW_UP_TURNS_MAX,
  FOLLOW_UP_TURNS_MIN,
  GENERATION_COUNT_MAX,
  GENERATION_COUNT_MIN,
  VARIATIONS_DEFAULT,
  VARIATIONS_MAX,
  VARIATIONS_MIN,
  WHEN_TO_ASK_DEFAULT,
  WHEN_TO_ASK_MAX,
  WHEN_TO_ASK_MIN,
} from './constants';
import { RED_TEAM_COUNT_MAX } from './red-team';

/** A test question as kept in the custom, compliance and promptHacking lists. */
export const ZQuestion = z.object({
  id: z.string().min(1).max(100),
  text: z.string().max(4000),
  selected: z.boolean(),
  isEditing: z.boolean().default(false),
  variations: z.number().int().min(VARIATIONS_MIN).max(VARIATIONS_MAX).default(VARIATIONS_DEFAULT),
  whenToAsk: z.number().int().min(WHEN_TO_ASK_MIN).max(WHEN_TO_ASK_MAX).default(WHEN_TO_ASK_DEFAULT),
  successCriteria: z.string().max(4000).default(''),
  isSuccessCriteriaEditing: z.boolean().default(false),
  /** Checks beside the judge's success criteria (contains, regex, latency, tool called, ...). */
  checks: z.array(ZQuestionCheck).max(CHECKS_PER_QUESTION_MAX).optional(),
  /** Share (0-1) of the checks' total weight that must pass; unset: every check must pass. */
  passThreshold: z.number().min(0).max(1).optional(),
  /** The red-team library category the question was generated from (its OWASP items in the report). */
  redTeam: z.string().max(60).optional(),
  /**
   * A document planted in a copy of the agent's knowledge for this question's conversations only
   * (indirect prompt injection); the agent's real knowledge is never written.
   */
  plantedDocument: z
    .object({ name: z.string().trim().min(1).max(200), content: z.string().trim().min(1).max(REFERENCE_MAX) })
    .optional(),
  /** A case made from a real conversation: the earlier turns replayed before the question, and the agent's answer as reference. */
  replay: z
    .object({
      history: z
        .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(REFERENCE_MAX) }))
        .max(REPLAY_TURNS_MAX),
      reference: z.string().max(REFERENCE_MAX),
      source: z.string().max(200),
    })
    .optional(),
});
export type TQuestion = z.infer<typeof ZQuestion>;

const ZQuestionList = z.array(ZQuestion).max(500);

/** Evaluation settings (spec/evaluation.md section 3, "Evaluation settings defaults"). */
export const ZEvaluationSettings = z.object({
  evaluationName: z.string().max(200).default(''),
  model: z.string().max(200).default(''),
  responseFormat: z.string().max(50).default('text'),
  stopSequences: z.array(z.string().max(200)).max(4).default([]),
  temperature: z.number().min(0).max(2).default(1),
  maxTokens: z.number().int().min(1).max(128_000).default(2048),
  topP: z.number().min(0).max(1).default(1),
  frequencyPenalty: z.number().min(-2).max(2).default(0),
  presencePenalty: z.number().min(-2).max(2).default(0),
  prompt: z.string().max(50_000).default(''),
  evaluationCriteria: z.array(z.string().max(2000)).max(50).default([]),
  reasoningEffect: z.string().max(50).default(''),
  assistant_id: z.string().max(100).default(''),
  evaluation_type: z.string().max(50).default('chatcompletion'),
  apiKeyIdUsedForImport: z.string().max(100).default(''),
  apiKeyIdUsedForConfig: z.string().max(100).default(''),
  testing_model: z.string().max(200).default(''),
  /** Turns the simulated user may add after the question when the success criteria need more of the conversation. */
  followUpTurns: z.number().int().min(FOLLOW_UP_TURNS_MIN).max(FOLLOW_UP_TURNS_MAX).default(0),
  /** Adaptive multi-turn attackers (crescendo, iterative, goal-driven) with their models and budgets. */
  adaptiveAttacks: ZAdaptiveAttackSettings.optional(),
});
export type TEvaluationSettings = z.infer<typeof ZEvaluationSettings>;

export const ZCheckedItems = z.object({
  'custom-questions': z.boolean(),
  compliance: z.boolean(),
  'prompt-hacking': z.boolean(),
});
export type TCheckedItems = z.infer<typeof ZCheckedItems>;

/** Saved test settings. Older records carry `model` instead of `testing_model`. */
export const ZTemplateData = z.object({
  testing_model: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  initialMessage: z.string().max(4000).default(''),
  shortuserDescription: z.string().max(4000).default(''),
  conversationFlowInput: z.string().max(4000).default(''),
  hallucinationInstruction: z.string().max(4000).default(''),
  hallucinationChoice: z.string().max(200).nullable().default(null),
  customQuestions: ZQuestionList.default([]),
  complianceQuestions: ZQuestionList.default([]),
  promptHackingQuestions: ZQuestionList.default([]),
  settings: ZEvaluationSettings.partial().default({}),
});
export type TTemplateData = z.infer<typeof ZTemplateData>;

export const ZTemplate = z.object({ _id: z.string(), templateName: z.string(), templateData: ZTemplateData });
export type TTemplate = z.infer<typeof ZTemplate>;
export const ZTemplatesResponse = z.object({ templates: z.array(ZTemplate) });
export type TTemplatesResponse = z.infer<typeof ZTemplatesResponse>;

export const ZCreateTemplateRequest = z.object({
  templateName: z
    .string()
    .max(200)
    .refine((value) => value.trim().length > 0, 'Please enter a template name'),
  templateData: ZTemplateData,
});
export type TCreateTemplateRequest = z.infer<typeof ZCreateTemplateRequest>;
export const ZCreateTemplateResponse = z.object({ templateId: z.string() });

/** "Add to test set" in the inbox: a real conversation becomes a replayable case of a template (a new one when none is given). */
export const ZAddTestCaseRequest = z.object({
  threadId: z.string().min(1).max(64),
  templateId: z.string().max(100).nullable().optional(),
  /** The new template's name when no templateId is given. */
  templateName: z.string().max(200).optional(),
});
export type TAddTestCaseRequest = z.infer<typeof ZAddTestCaseRequest>;
export const ZAddTestCaseResponse = z.object({
  templateId: z.string(),
  templateName: z.string(),
  questionId: z.string(),
  /** False when this conversation was already a case of the template. */
  added: z.boolean(),
});
export type TAddTestCaseResponse = z.infer<typeof ZAddTestCaseResponse>;
export const REAL_CONVERSATIONS_TEMPLATE = 'Real conversations';

const ZCount = z.number().int().min(GENERATION_COUNT_MIN).max(GENERATION_COUNT_MAX);

/** A custom generation category; its count is a string, and any value above 50 counts as 50. */
export const ZCustomPrompt = z.object({
  id: z.string().min(1).max(100),
  count: z.string().max(10),
  label: z.string().max(200),
});
export type TCustomPrompt = z.infer<typeof ZCustomPrompt>;

export const ZQuestionGeneratorRequest = z.object({
  evaluation_type: z.literal('questiongenerator'),
  generatedIndustryCount: ZCount,
  generatedAngryCount: ZCount,
  generatedComplianceCount: ZCount,
  generatedPromptHackingCount: ZCount,
  customPrompts: z.array(ZCustomPrompt).max(20).default([]),
  prompt: z.string().max(50_000).default(''),
  /** The testing model that writes the questions; the screen's testing model. */
  testing_model: z.string().max(200).optional(),
  /** The agent under test: the questions are written for its instructions, first message, knowledge and tools. */
  assistant_id: z.string().max(100).optional(),
  /** Red-team library categories to generate (RED_TEAM_CATEGORIES ids), each redTeamCount times. */
  redTeam: z.array(z.string().max(60)).max(40).default([]),
  redTeamCount: z.number().int().min(0).max(RED_TEAM_COUNT_MAX).default(2),
});
export type TQuestionGeneratorRequest = z.infer<typeof ZQuestionGeneratorRequest>;

/** Parses a custom category count: digits only, capped at 50, anything else 0. */
export const customPromptCount = (count: string): number => {
  const parsed = Number.parseInt(count, 10);
  if (!Number.isFinite(parsed) || parsed < 0) return 0;
  return Math.min(parsed, CUSTOM_CATEGORY_COUNT_CAP);
};

export const ZGeneratedQuestion = z.object({
  question: z.string(),
  criteria: z.string(),
  /** Multi-turn red-team strategies are asked later in the conversation. */
  whenToAsk: z.number().int().min(WHEN_TO_ASK_MIN).max(WHEN_TO_ASK_MAX).optional(),
  status: z.enum(['added', 'rejected']).optional(),
});
export type TGeneratedQuestion = z.infer<typeof ZGeneratedQuestion>;

export const ZQuestionGeneratorStartResponse = z.object({ data: z.object({ generatequestionsId: z.string() }) });
export const ZQuestionGeneratorStatus = z.object({
  success: z.boolean(),
  data: z.object({
    status: z.enum(['pending', 'complete', 'failed']),
    error: z.string().nullable(),
    results: z.object({ results: z.record(z.string(), z.array(ZGeneratedQuestion)) }),
  }),
});
export type TQuestionGeneratorStatus = z.infer<typeof ZQuestionGeneratorStatus>;

/** What the testing model answers for one generation category (structured output). */
export const ZGeneratedQuestionBatch = z.object({
  questions: z.array(z.object({ question: z.string(), criteria: z.string() })),
});

export const ZAi1Config = z.object({
  model: z.string().max(200),
  temperature: z.number().min(0).max(2),
  max_tokens: z.number().int().min(1).max(128_000),
  top_p: z.number().min(0).max(1),
  frequency_penalty: z.number().min(-2).max(2),
  presence_penalty: z.number().min(-2).max(2),
  stop: z.array(z.string().max(200)).max(4),
});
export type TAi1Config = z.infer<typeof ZAi1Config>;

/** The evaluation start payload (spec/evaluation.md section 3). */
export const ZEvaluationStartPayload = z.object({
  evaluationId: z.string().min(1).max(100),
  ai1_config: z.union([ZAi1Config, z.object({}).strict()]),
  assistant_id: z.string().max(100).optional(),
  initial_message: z.string().max(4000),
  shortuserDescription: z.string().max(4000),
  conversationFlowInput: z.string().max(4000).default(''),
  hallucinationInstruction: z.string().max(4000).default(''),
  hallucinationChoice: z.string().max(200).nullable().default(null),
  customQuestionInstruction: z.string().max(4000).default(''),
  complianceQuestionInstruction: z.string().max(4000).default(''),
  promptHackingQuestionInstruction: z.string().max(4000).default(''),
  subItemValues: z.record(z.string(), z.unknown()).default({}),
  subItemSuccessCriteriaMap: z.record(z.string(), z.unknown()).default({}),
  checkedItems: ZCheckedItems,
  settings: ZEvaluationSettings.partial(),
  customQuestions: ZQuestionList,
  complianceQuestions: ZQuestionList,
  promptHackingQuestions: ZQuestionList,
  testing_model_for_test_generation: z.string().max(200),
  /** The template the settings came from, when one was loaded. */
  templateId: z.string().max(100).nullable().optional(),
});
export type TEvaluationStartPayload = z.infer<typeof ZEvaluationStartPayload>;
export type TEvaluationStartInput = z.input<typeof ZEvaluationStartPayload>;

/** Runs a saved template against one of the sub-account's agents, or against a model with the template's prompt. */
/**
 * Runs a saved template against one of the sub-account's agents, or against a model with the
 * template's prompt: exactly one of agentId and model (checked by the service, after the tenant guard).
 */
export const ZRunFromTemplateRequest = z.object({
  templateId: z.string().min(1).max(100),
  agentId: z.string().min(1).max(100).optional(),
  /** The model under test (`gpt-4o`, `compatible:llama3`), given the template's settings.prompt. */
  model: z.string().min(1).max(200).optional(),
  /** Overrides the template's testing model. */
  testingModel: z.string().min(1).max(200).optional(),
});
export type TRunFromTemplateRequest = z.infer<typeof ZRunFromTemplateRequest>;

export const ZRunStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type TRunStatus = z.infer<typeof ZRunStatus>;

export const ZRunProgress = z.object({
  total: z.number().int(),
  done: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Conversations that could not be evaluated (provider error, timeout, unreadable judge answer). */
  errors: z.number().int(),
  /** Passed over graded (passed + failed), 0-1; errors are left out; null before the first grade. */
  passRate: z.number().nullable(),
});
export type TRunProgress = z.infer<typeof ZRunProgress>;

export const ZEvaluationRun = z.object({
  id: z.string(),
  evaluationId: z.string(),
  name: z.string(),
  type: z.enum(['chatcompletion', 'openai-assistants']),
  agentId: z.string().nullable(),
  targetLabel: z.string(),
  templateId: z.string().nullable(),
  testingModel: z.string(),
  /** The offline model (picked by name) plays the testing model or the agent: no real language model ran. */
  offline: z.boolean(),
  status: ZRunStatus,
  error: z.string().nullable(),
  /** The app error type (spec/evaluation.md 8.3) of the failure that stopped the run, if any. */
  errorReason: z.string().nullable(),
  progress: ZRunProgress,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TEvaluationRun = z.infer<typeof ZEvaluationRun>;

export const ZStartRunResponse = z.object({ runId: z.string(), evaluationId: z.string(), run: ZEvaluationRun });
export type TStartRunResponse = z.infer<typeof ZStartRunResponse>;

export const ZRunsResponse = z.object({ runs: z.array(ZEvaluationRun), total: z.number().int() });
export type TRunsResponse = z.infer<typeof ZRunsResponse>;

export const ZConversationOutcome = z.enum(['passed', 'failed', 'error']);
export type TConversationOutcome = z.infer<typeof ZConversationOutcome>;

export const ZTranscriptMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** The tools the agent called for this answer, with what each answered (an error included). */
  toolCalls: z.array(ZToolCallView).optional(),
  /** The knowledge excerpts the agent retrieved for this answer (its test chat's "Sources"). */
  sources: z.array(z.object({ documentId: z.string(), name: z.string(), excerpt: z.string() })).optional(),
});
export type TTranscriptMessage = z.infer<typeof ZTranscriptMessage>;

export const ZEvaluationConversation = z.object({
  id: z.string(),
  questionKey: z.string(),
  category: z.enum(['custom', 'compliance', 'promptHacking']),
  variation: z.number().int(),
  question: z.string(),
  originalQuestion: z.string(),
  successCriteria: z.string(),
  whenToAsk: z.number().int(),
  transcript: z.array(ZTranscriptMessage),
  answer: z.string(),
  /** passed and failed are graded; error could not be evaluated and counts in neither. */
  outcome: ZConversationOutcome,
  passed: z.boolean(),
  score: z.number(),
  reasoning: z.string(),
  error: z.string().nullable(),
  /** The error's server code and app error type (8.3/8.4), when outcome is error. */
  errorCode: z.string().nullable(),
  errorReason: z.string().nullable(),
  /** Results of the question's checks, each on its own. */
  checks: z.array(ZCheckResult),
  /** How long the conversation took, in milliseconds; null for conversations stored before it was kept. */
  durationMs: z.number().int().nullable().optional(),
  /** An adaptive attack's steps, judge scores and budget; null for a question's conversation. */
  attack: ZAdaptiveAttack.nullable().optional(),
  createdAt: z.string(),
});
export type TEvaluationConversation = z.infer<typeof ZEvaluationConversation>;

export const ZCategorySummary = z.object({
  category: z.enum(['custom', 'compliance', 'promptHacking']),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  errors: z.number().int(),
  /** Passed over graded; errors left out. */
  passRate: z.number().nullable(),
});

/** A question's results across its variations: "3 of 4 passed". */
export const ZQuestionSummary = z.object({
  questionKey: z.string(),
  category: z.enum(['custom', 'compliance', 'promptHacking']),
  question: z.string(),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  errors: z.number().int(),
});
export type TQuestionSummary = z.infer<typeof ZQuestionSummary>;

export const ZRunResults = z.object({
  run: ZEvaluationRun,
  categories: z.array(ZCategorySummary),
  questions: z.array(ZQuestionSummary),
  /** Failures first, then by category and question. */
  conversations: z.array(ZEvaluationConversation),
});
export type TRunResults = z.infer<typeof ZRunResults>;

/** The judge's verdict (structured output). */
export const ZJudgeVerdict = z.object({
  passed: z.boolean(),
  score: z.number().min(0).max(1),
  reasoning: z.string(),
});
export type TJudgeVerdict = z.infer<typeof ZJudgeVerdict>;

export const ZComparisonRow = z.object({
  questionKey: z.string(),
  category: z.enum(['custom', 'compliance', 'promptHacking']),
  variation: z.number().int(),
  question: z.string(),
  before: z.boolean().nullable(),
  after: z.boolean().nullable(),
  beforeOutcome: ZConversationOutcome.nullable(),
  afterOutcome: ZConversationOutcome.nullable(),
  change: z.enum(['pass-to-fail', 'fail-to-pass', 'same', 'added', 'removed']),
});
export const ZRunComparison = z.object({
  base: ZEvaluationRun,
  other: ZEvaluationRun,
  rows: z.array(ZComparisonRow),
  summary: z.object({
    passToFail: z.number().int(),
    failToPass: z.number().int(),
    same: z.number().int(),
    /** Asked only in the other (newer) run, or only in the base run. */
    added: z.number().int(),
    removed: z.number().int(),
  }),
});
export type TRunComparison = z.infer<typeof ZRunComparison>;

/** Server-sent event payloads on a run's progress stream. */
export type TRunEvent =
  | { type: 'snapshot'; run: TEvaluationRun }
  | { type: 'conversation'; run: TEvaluationRun; conversation: TEvaluationConversation }
  | { type: 'status'; run: TEvaluationRun };
