import { z } from 'zod';

/** Where a model runs. 'offline' is the built-in deterministic model used when no key is set. */
export const ZProviderId = z.enum(['offline', 'openai', 'openrouter', 'anthropic', 'compatible']);
export type TProviderId = z.infer<typeof ZProviderId>;

/** Providers whose key an account stores on the Settings page. */
export const ZKeyedProviderId = z.enum(['openai', 'openrouter', 'anthropic', 'compatible']);
export type TKeyedProviderId = z.infer<typeof ZKeyedProviderId>;

export const PROVIDER_LABELS: Record<TProviderId, string> = {
  offline: 'Offline model',
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  anthropic: 'Anthropic',
  compatible: 'OpenAI-compatible',
};

/** The label shown wherever a reply of the offline model is shown. */
export const OFFLINE_MODEL_LABEL = 'Offline model';
export const OFFLINE_MODEL_ID = 'offline';

/** Models offered before the provider's own list has been fetched. */
export const DEFAULT_MODELS: Record<TKeyedProviderId, string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'gpt-3.5-turbo'],
  openrouter: ['openai/gpt-4o-mini', 'anthropic/claude-3.5-sonnet', 'meta-llama/llama-3.1-70b-instruct'],
  anthropic: ['claude-3-5-haiku-latest', 'claude-sonnet-4-0'],
  compatible: [],
};

export const ZModelChoice = z.object({ provider: ZProviderId, model: z.string().trim().min(1).max(200) });
export type TModelChoice = z.infer<typeof ZModelChoice>;

export const ZModelOption = z.object({ provider: ZProviderId, model: z.string(), label: z.string() });
export type TModelOption = z.infer<typeof ZModelOption>;

/**
 * Credits charged per 1,000 tokens (input, output). One credit is one US cent of model spend;
 * unknown models are charged the default row. The offline model costs a token amount so that
 * metering is visible without a key.
 */
const PRICES: { match: RegExp; input: number; output: number }[] = [
  { match: /^offline$/, input: 0.001, output: 0.002 },
  { match: /gpt-4o-mini/, input: 0.015, output: 0.06 },
  { match: /gpt-4\.1-mini/, input: 0.04, output: 0.16 },
  { match: /gpt-4\.1/, input: 0.2, output: 0.8 },
  { match: /gpt-4o/, input: 0.25, output: 1 },
  { match: /gpt-3\.5/, input: 0.05, output: 0.15 },
  { match: /haiku/, input: 0.08, output: 0.4 },
  { match: /sonnet/, input: 0.3, output: 1.5 },
  { match: /opus/, input: 1.5, output: 7.5 },
];
const DEFAULT_PRICE = { input: 0.1, output: 0.3 };

export const creditsForUsage = (model: string, inputTokens: number, outputTokens: number): number => {
  const price = PRICES.find((row) => row.match.test(model)) ?? DEFAULT_PRICE;
  const credits = (inputTokens / 1000) * price.input + (outputTokens / 1000) * price.output;
  return Math.round(credits * 10_000) / 10_000;
};

/**
 * A call made with the agency's own provider key is paid to the provider by the agency; the
 * platform charges only its fee: this many credits per 1,000 tokens (input and output alike),
 * whatever the model.
 */
export const OWN_KEY_CREDITS_PER_1K_TOKENS = 0.01;
export const ownKeyCredits = (inputTokens: number, outputTokens: number): number =>
  Math.round(((inputTokens + outputTokens) / 1000) * OWN_KEY_CREDITS_PER_1K_TOKENS * 10_000) / 10_000;

/** A rough token count (4 characters a token) used for estimates and by the offline model. */
export const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export const ZSaveProviderKeyRequest = z.object({
  apiKey: z.string().trim().max(500, 'Use at most 500 characters').default(''),
  baseUrl: z
    .url({ error: 'Enter a full URL starting with http:// or https://' })
    .max(500)
    .refine((value) => /^https?:\/\//i.test(value), 'Enter a full URL starting with http:// or https://')
    .nullish(),
});
export type TSaveProviderKeyRequest = z.input<typeof ZSaveProviderKeyRequest>;

export const ZProviderKeyView = z.object({
  provider: ZKeyedProviderId,
  label: z.string(),
  configured: z.boolean(),
  /** The last four characters of the key, never the key itself. */
  keyTail: z.string().nullable(),
  baseUrl: z.string().nullable(),
  models: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type TProviderKeyView = z.infer<typeof ZProviderKeyView>;
export const ZProviderKeysResponse = z.object({ providers: z.array(ZProviderKeyView) });
