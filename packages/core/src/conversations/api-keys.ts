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

/** POST /v1/chat/completions (the OpenAI shape; `model` is an agent id). */
export const ZChatCompletionRequest = z
  .object({
    model: z.string().min(1).max(64),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
            content: z.union([z.string().max(32_000), z.array(ZContentPart).max(50), z.null()]).optional(),
          })
          .loose(),
      )
      .min(1)
      .max(200),
    stream: z.boolean().optional(),
    user: z.string().max(200).optional(),
  })
  .loose();
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;
