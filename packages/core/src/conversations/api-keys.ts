import { z } from 'zod';

/** Platform API keys start with this prefix; only their hash is stored. */
export const API_KEY_PREFIX = 'sk_sb_';

export const ZCreateApiKeyRequest = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(80, 'Use at most 80 characters'),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

export const ZApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  keyTail: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type TApiKeyView = z.infer<typeof ZApiKeyView>;
export const ZApiKeyListResponse = z.object({ keys: z.array(ZApiKeyView) });
/** The answer to a creation: the only time the full key is shown. */
export const ZCreatedApiKey = ZApiKeyView.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

const ZContentPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

const ZToolCallOut = z.object({
  id: z.string().max(200),
  type: z.literal('function'),
  function: z.object({ name: z.string().max(64), arguments: z.string().max(100_000) }),
});

const ZChatMessage = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
    content: z.union([z.string().max(32_000), z.array(ZContentPart).max(50), z.null()]).optional(),
    name: z.string().max(64).optional(),
    tool_calls: z.array(ZToolCallOut).max(32).optional(),
    tool_call_id: z.string().max(200).optional(),
  })
  .loose();

const ZFunctionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Tool names use letters, digits, _ and -, at most 64 characters'),
    description: z.string().max(4000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

const ZResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().max(64),
      description: z.string().max(4000).optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

/**
 * POST /v1/chat/completions (the OpenAI shape; `model` is an agent id). Every parameter listed here
 * is honoured; any other is answered 400 naming it (see unsupportedChatParameters), never ignored.
 */
export const ZChatCompletionRequest = z
  .object({
    model: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: 'The id of the agent to call (agt_…), as listed by GET /v1/models.' }),
    messages: z.array(ZChatMessage).min(1).max(200),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
    user: z.string().max(200).optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_tokens: z.number().int().min(1).max(128_000).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).max(128_000).nullable().optional(),
    frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
    presence_penalty: z.number().min(-2).max(2).nullable().optional(),
    stop: z
      .union([z.string().max(200), z.array(z.string().max(200)).max(4)])
      .nullable()
      .optional(),
    n: z.number().int().nullable().optional(),
    response_format: ZResponseFormat.optional(),
    tools: z.array(ZFunctionTool).max(64).optional(),
    tool_choice: z
      .union([
        z.enum(['none', 'auto', 'required']),
        z.object({ type: z.literal('function'), function: z.object({ name: z.string().max(64) }) }),
      ])
      .optional(),
    parallel_tool_calls: z.boolean().optional(),
  })
  .loose();
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

const SUPPORTED = new Set(Object.keys(ZChatCompletionRequest.shape));

/**
 * The parameters of a chat completion request the API does not honour: unknown keys, n other than
 * 1, content parts other than text. The API answers 400 naming them rather than ignoring them.
 */
export const unsupportedChatParameters = (body: Record<string, unknown>): string[] => {
  const problems = Object.keys(body)
    .filter((key) => !SUPPORTED.has(key) && body[key] !== undefined && body[key] !== null)
    .map((key) => key);
  if (typeof body.n === 'number' && body.n !== 1) problems.push('n (only 1 is supported)');
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  const partTypes = new Set<string>();
  for (const message of messages) {
    if (Array.isArray(message.content)) {
      for (const part of message.content as { type?: string }[]) {
        if (part.type !== 'text') partTypes.add(String(part.type));
      }
    }
  }
  for (const type of partTypes) problems.push(`messages[].content[].type "${type}" (only text is supported)`);
  return problems;
};
