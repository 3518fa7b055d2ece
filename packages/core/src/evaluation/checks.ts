import { z } from 'zod';

/**
 * Checks of a question beside the LLM judge's success criteria (docs/features/evaluation.md,
 * "Checks"). Each gives its own result; a conversation passes when the judge (if it ran) and every
 * check pass.
 */

export const REGEX_PATTERN_MAX = 200;
export const CHECK_TEXT_MAX = 500;
export const CHECKS_PER_QUESTION_MAX = 10;
export const REFERENCE_MAX = 2000;
export const REPLAY_TURNS_MAX = 20;

/** Arguments a tool call must have: scalar values, compared one by one. */
const ZToolArgs = z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));

export const ZQuestionCheck = z.discriminatedUnion('type', [
  z.object({ type: z.literal('contains'), value: z.string().min(1).max(CHECK_TEXT_MAX) }),
  z.object({ type: z.literal('not_contains'), value: z.string().min(1).max(CHECK_TEXT_MAX) }),
  z.object({
    type: z.literal('regex'),
    pattern: z.string().min(1).max(REGEX_PATTERN_MAX),
    ignoreCase: z.boolean().default(false),
  }),
  z.object({
    type: z.literal('json_shape'),
    /** Required keys and their JSON types: {"price": "number", "currency": "string"}. */
    shape: z.record(z.string().max(100), z.enum(['string', 'number', 'boolean', 'object', 'array', 'null', 'any'])),
  }),
  z.object({ type: z.literal('max_latency'), ms: z.number().int().min(1).max(600_000) }),
  z.object({ type: z.literal('max_cost'), credits: z.number().min(0).max(1_000_000) }),
  z.object({ type: z.literal('tool_called'), tool: z.string().min(1).max(100), args: ZToolArgs.optional() }),
  z.object({ type: z.literal('tool_not_called'), tool: z.string().min(1).max(100), args: ZToolArgs.optional() }),
  z.object({ type: z.literal('refusal') }),
  z.object({
    type: z.literal('similarity'),
    reference: z
      .string()
      .min(1)
      .max(CHECK_TEXT_MAX * 4),
    /** Lowest similarity (0-1) that passes. */
    min: z.number().min(0).max(1).default(0.5),
  }),
]);
export type TQuestionCheck = z.infer<typeof ZQuestionCheck>;
export type TQuestionCheckType = TQuestionCheck['type'];

export const ZCheckResult = z.object({
  type: z.string(),
  label: z.string(),
  passed: z.boolean(),
  detail: z.string(),
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
  }
};
