import { APICallError } from '@ai-sdk/provider';
import type { TKeyedProviderId } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { providerFetchFor } from '../../platform/outbound';
import { mapProviderError } from './errors';

/** The cheap call that tests a key on save: the provider's model list. */
export const fetchProviderModels = async (
  deps: Deps,
  provider: TKeyedProviderId,
  credentials: { apiKey: string; baseUrl: string | null },
): Promise<string[]> => {
  const base = (
    credentials.baseUrl ??
    {
      openai: deps.env.OPENAI_BASE_URL,
      openrouter: deps.env.OPENROUTER_BASE_URL,
      anthropic: deps.env.ANTHROPIC_BASE_URL,
      compatible: '',
    }[provider]
  ).replace(/\/+$/, '');
  const url = `${base}/models`;
  const headers: Record<string, string> =
    provider === 'anthropic'
      ? { 'x-api-key': credentials.apiKey, 'anthropic-version': '2023-06-01' }
      : credentials.apiKey
        ? { authorization: `Bearer ${credentials.apiKey}` }
        : {};
  try {
    const response = await providerFetchFor(deps.env, credentials.baseUrl)(url, {
      headers,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new APICallError({
        message: `The provider answered ${response.status}`,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        responseBody: text,
      });
    }
    const body = JSON.parse(text) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    const ids = (body.data ?? []).map((item) => item.id).concat((body.models ?? []).map((item) => item.name));
    return [...new Set(ids.filter((id): id is string => typeof id === 'string'))].sort().slice(0, 300);
  } catch (error) {
    throw mapProviderError(error);
  }
};
