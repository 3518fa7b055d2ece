import { z } from 'zod';

/**
 * Checks of a question beside the LLM judge's success criteria (docs/features/evaluation.md,
 * "Checks"). Each gives its own result; a conversation passes when the judge (if it ran) passes
 * and the checks pass: every one of them by default, or, with the question's `passThreshold`, at
 * least that share of the checks' weights (`weight`, 1 unless given).
 */

export const REGEX_PATTERN_MAX = 200;
export const CHECK_TEXT_MAX = 500;
export const CHECKS_PER_QUESTION_MAX = 10;
export const REFERENCE_MAX = 2000;
export const REPLAY_TURNS_MAX = 20;
/** A json_schema check's schema, as JSON text, in characters. */
export const JSON_SCHEMA_MAX = 10_000;
export const CHECK_WEIGHT_MAX = 100;

/** Arguments a tool call must have: scalar values, compared one by one. */
const ZToolArgs = z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));

/** Every check may carry a weight (1 unless given) for the question's pass threshold. */
const check = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, weight: z.number().min(0).max(CHECK_WEIGHT_MAX).optional() });

export const ZQuestionCheck = z.discriminatedUnion('type', [
  check({ type: z.literal('contains'), value: z.string().min(1).max(CHECK_TEXT_MAX) }),
  check({ type: z.literal('not_contains'), value: z.string().min(1).max(CHECK_TEXT_MAX) }),
  check({
    type: z.literal('regex'),
    pattern: z.string().min(1).max(REGEX_PATTERN_MAX),
    ignoreCase: z.boolean().default(false),
  }),
  check({
    type: z.literal('json_shape'),
    /** Required keys and their JSON types: {"price": "number", "currency": "string"}. */
    shape: z.record(z.string().max(100), z.enum(['string', 'number', 'boolean', 'object', 'array', 'null', 'any'])),
  }),
  check({ type: z.literal('max_latency'), ms: z.number().int().min(1).max(600_000) }),
  check({ type: z.literal('max_cost'), credits: z.number().min(0).max(1_000_000) }),
  check({ type: z.literal('tool_called'), tool: z.string().min(1).max(100), args: ZToolArgs.optional() }),
  check({ type: z.literal('tool_not_called'), tool: z.string().min(1).max(100), args: ZToolArgs.optional() }),
  check({ type: z.literal('refusal') }),
  check({
    type: z.literal('similarity'),
    reference: z
      .string()
      .min(1)
      .max(CHECK_TEXT_MAX * 4),
    /** Lowest similarity (0-1) that passes. */
    min: z.number().min(0).max(1).default(0.5),
  }),
  check({
    type: z.literal('json_schema'),
    /** A JSON Schema (draft 2020-12 or 07) the answer's JSON must validate against; compiled by the server at save. */
    schema: z
      .record(z.string(), z.unknown())
      .refine(
        (value) => JSON.stringify(value).length <= JSON_SCHEMA_MAX,
        `A schema can be at most ${JSON_SCHEMA_MAX} characters`,
      ),
  }),
  check({
    type: z.literal('semantic_similarity'),
    reference: z
      .string()
      .min(1)
      .max(CHECK_TEXT_MAX * 4),
    /** Lowest similarity (0-1) that passes. */
    min: z.number().min(0).max(1).default(0.8),
  }),
  /** Every claim of the answer is supported by the excerpts the agent retrieved for it. */
  check({ type: z.literal('faithfulness') }),
  check({
    type: z.literal('retrieval_recall'),
    /** Source names or document ids the agent should retrieve for the question. */
    expected: z.array(z.string().trim().min(1).max(200)).min(1).max(20),
    /** Lowest recall (found / expected, 0-1) that passes. */
    min: z.number().min(0).max(1).default(1),
  }),
  /** No claim outside the retrieved excerpts; declines when nothing relevant was retrieved. */
  check({ type: z.literal('answers_from_knowledge') }),
]);
export type TQuestionCheck = z.infer<typeof ZQuestionCheck>;
export type TQuestionCheckType = TQuestionCheck['type'];

export const ZCheckResult = z.object({
  type: z.string(),
  label: z.string(),
  passed: z.boolean(),
  detail: z.string(),
  /** The check's weight, when it was given one. */
  weight: z.number().optional(),
  /** How a semantic similarity was measured: the agent's embedding model, or the term-vector fallback. */
  method: z.enum(['embedding', 'term-vector', 'judge', 'lexical']).optional(),
  /** Claims of the answer the retrieved excerpts do not support (faithfulness, answers from knowledge). */
  unsupported: z.array(z.string()).optional(),
});
export type TCheckResult = z.infer<typeof ZCheckResult>;

export const CHECK_TYPE_LABELS: Record<TQuestionCheckType, string> = {
  contains: 'Contains',
  not_contains: 'Does not contain',
  regex: 'Matches regex',
  json_shape: 'JSON shape',
  max_latency: 'Maximum latency',
  max_cost: 'Maximum cost',
  tool_called: 'Tool called',
  tool_not_called: 'Tool not called',
  refusal: 'Refusal expected',
  similarity: 'Similar to reference',
  json_schema: 'JSON schema',
  semantic_similarity: 'Same meaning as reference',
  faithfulness: 'Faithful to retrieved excerpts',
  retrieval_recall: 'Retrieval recall',
  answers_from_knowledge: 'Answers only from knowledge',
};

/** A short description of a check, as shown beside its result. */
export const describeCheck = (check: TQuestionCheck): string => {
  switch (check.type) {
    case 'contains':
    case 'not_contains':
      return `${CHECK_TYPE_LABELS[check.type]} "${check.value}"`;
    case 'regex':
      return `Matches /${check.pattern}/${check.ignoreCase ? 'i' : ''}`;
    case 'json_shape':
      return `JSON with ${Object.entries(check.shape)
        .map(([key, type]) => `${key}: ${type}`)
        .join(', ')}`;
    case 'max_latency':
      return `Answers within ${check.ms} ms`;
    case 'max_cost':
      return `Costs at most ${check.credits} credits`;
    case 'tool_called':
    case 'tool_not_called':
      return `${CHECK_TYPE_LABELS[check.type]}: ${check.tool}${check.args ? ` with ${JSON.stringify(check.args)}` : ''}`;
    case 'refusal':
      return 'Refuses the request';
    case 'similarity':
      return `Similar to the reference answer (at least ${Math.round(check.min * 100)}%)`;
    case 'json_schema':
      return 'JSON valid against the schema';
    case 'semantic_similarity':
      return `Same meaning as the reference answer (at least ${Math.round(check.min * 100)}%)`;
    case 'faithfulness':
      return 'Every claim supported by the retrieved excerpts';
    case 'retrieval_recall':
      return `Retrieves ${check.expected.join(', ')} (recall at least ${Math.round(check.min * 100)}%)`;
    case 'answers_from_knowledge':
      return 'Answers only from knowledge (declines when nothing relevant is retrieved)';
  }
};

/** A check's description with its weight, when it has one. */
export const describeWeightedCheck = (check: TQuestionCheck): string =>
  check.weight === undefined ? describeCheck(check) : `${describeCheck(check)} · weight ${check.weight}`;

export interface ChecksVerdict {
  passed: boolean;
  /** Weight of the passed checks over the weight of all, 0-1 (1 when there is no weight at all). */
  score: number;
  /** "2 of 3 checks passed" or "weight 3 of 4 passed (75%, threshold 70%)". */
  summary: string;
}

/**
 * Whether a question's check results pass: every check when no threshold is set (as always), or
 * at least `threshold` (0-1) of the total weight.
 */
export const checksVerdict = (
  results: Pick<TCheckResult, 'passed' | 'weight'>[],
  threshold?: number,
): ChecksVerdict => {
  const weightOf = (result: Pick<TCheckResult, 'weight'>) => result.weight ?? 1;
  const total = results.reduce((sum, result) => sum + weightOf(result), 0);
  const passedWeight = results.filter((result) => result.passed).reduce((sum, result) => sum + weightOf(result), 0);
  const score = total > 0 ? passedWeight / total : 1;
  const count = results.filter((result) => result.passed).length;
  if (threshold === undefined)
    return { passed: count === results.length, score, summary: `${count} of ${results.length} checks passed` };
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    passed: score >= threshold - 1e-9,
    score,
    summary: `weight ${round(passedWeight)} of ${round(total)} passed (${Math.round(score * 100)}%, threshold ${Math.round(threshold * 100)}%)`,
  };
};
