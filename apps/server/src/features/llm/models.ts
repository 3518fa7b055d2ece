import type { LanguageModelV3 } from '@ai-sdk/provider';
import { OFFLINE_MODEL_ID, type TProviderId } from '@switchboard/core';
import { decryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { defineReaction } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { providerFetchFor } from '../../platform/outbound';
import { TtlCache } from '../../platform/ttl-cache';
import { findProviderKey, type ProviderKeyRow } from '../providers/repo';
import { createOfflineModel } from './offline-model';

/** Provider keys of accounts, kept 10 s (saving or removing a key in this process invalidates). */
const keyRows = new TtlCache<{ row: ProviderKeyRow | null; apiKey: string }>(10_000);

/** Saving or removing a key (providers publishes `provider_key.changed`) drops the account's keys. */
export const dropKeysOnChange = defineReaction({
  event: 'provider_key.changed',
  name: 'llm.drop-provider-keys',
  runs: 'every-process',
  handle: async (_deps, { accountId }) => {
    keyRows.deleteWhere((key) => key.startsWith(`${accountId}:`));
  },
});

export interface ResolvedModel {
  model: LanguageModelV3;
  /** The model id metered and shown ('offline' for the offline model). */
  modelId: string;
  offline: boolean;
}

export interface ProviderCredentials {
  apiKey: string;
  baseUrl: string | null;
}

/**
 * A provider's AI SDK model. Each provider's SDK is loaded on first use, so a server whose accounts
 * use the offline model (or one provider) does not hold the others in memory.
 */
const createProviderModel = async (
  deps: Deps,
  provider: Exclude<TProviderId, 'offline'>,
  model: string,
  credentials: ProviderCredentials,
): Promise<LanguageModelV3> => {
  const { apiKey } = credentials;
  const fetch = providerFetchFor(deps.env, credentials.baseUrl);
  switch (provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        apiKey,
        baseURL: credentials.baseUrl ?? deps.env.OPENAI_BASE_URL,
        fetch,
      }).chat(model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        apiKey,
        baseURL: credentials.baseUrl ?? deps.env.ANTHROPIC_BASE_URL,
        fetch,
      })(model);
    }
    case 'openrouter': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openrouter',
        apiKey,
        baseURL: credentials.baseUrl ?? deps.env.OPENROUTER_BASE_URL,
        includeUsage: true,
        // JSON schemas reach the model as response_format json_schema (docs/features/evaluation.md).
        supportsStructuredOutputs: true,
        fetch,
      }).chatModel(model);
    }
    case 'compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'compatible',
        apiKey: apiKey || undefined,
        baseURL: credentials.baseUrl ?? '',
        includeUsage: true,
        supportsStructuredOutputs: true,
        fetch,
      }).chatModel(model);
    }
  }
};

/** Provider clients by credentials and model: building one (its schemas, its settings) costs more than a call. */
const models = new TtlCache<LanguageModelV3>(10 * 60_000, 1000);

/** The AI SDK model of a provider with explicit credentials (used for calls and for key checks). */
export const providerModel = async (
  deps: Deps,
  provider: Exclude<TProviderId, 'offline'>,
  model: string,
  credentials: ProviderCredentials,
): Promise<LanguageModelV3> => {
  const { OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OPENROUTER_BASE_URL } = deps.env;
  const defaults = [OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OPENROUTER_BASE_URL];
  const key = JSON.stringify([provider, model, credentials.apiKey, credentials.baseUrl, defaults]);
  const found = models.get(key);
  if (found) return found;
  const created = await createProviderModel(deps, provider, model, credentials);
  models.set(key, created);
  return created;
};

const PROVIDER_NAMES: Record<Exclude<TProviderId, 'offline'>, string> = {
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  anthropic: 'Anthropic',
  compatible: 'OpenAI-compatible',
};

/**
 * The no_api_key app error (spec/evaluation.md 8.3: 'No OpenAI API key found.', title 'API Key
 * Required', action to the provider settings). 422: the request is fine, the account lacks a key.
 */
export const noApiKeyError = (provider: Exclude<TProviderId, 'offline'>, field?: string) =>
  new AppError('API_KEY_NOT_FOUND', `No ${PROVIDER_NAMES[provider]} API key found.`, {
    reason: 'no_api_key',
    status: 422,
    field,
  });

const keyRowOf = (deps: Deps, accountId: string, provider: Exclude<TProviderId, 'offline'>) =>
  keyRows.getOrLoad(`${accountId}:${provider}`, async () => {
    const found = await findProviderKey(deps.db, accountId, provider);
    return { row: found, apiKey: found?.encryptedKey ? decryptSecret(deps.env, found.encryptedKey) : '' };
  });

/** The account's credentials for a provider (its key, or its base URL), or null without any. */
export const providerCredentials = async (
  deps: Deps,
  accountId: string,
  provider: Exclude<TProviderId, 'offline'>,
): Promise<ProviderCredentials | null> => {
  const { row, apiKey } = await keyRowOf(deps, accountId, provider);
  return row && (row.encryptedKey || row.baseUrl) ? { apiKey, baseUrl: row.baseUrl } : null;
};

/** Whether a choice runs on a real provider the account has a usable key (or URL) for; the offline model needs none. */
export const hasUsableKey = async (deps: Deps, accountId: string, choice: { provider: TProviderId }) => {
  if (choice.provider === 'offline') return true;
  const { row } = await keyRowOf(deps, accountId, choice.provider);
  return Boolean(row && (row.encryptedKey || row.baseUrl));
};

/**
 * The model an account uses for a choice: the provider's model when the account has a key for it,
 * otherwise the deterministic offline model, or, with `strict`, the no_api_key error (callers whose
 * result must never come from a model the user did not pick, such as evaluation runs).
 */
export const resolveModel = async (
  deps: Deps,
  accountId: string,
  choice: { provider: TProviderId; model: string },
  options: { strict?: boolean } = {},
): Promise<ResolvedModel> => {
  if (choice.provider !== 'offline') {
    const provider = choice.provider;
    const { row, apiKey } = await keyRowOf(deps, accountId, provider);
    if (options.strict && !(row && (row.encryptedKey || row.baseUrl))) throw noApiKeyError(provider);
    if (row && (row.encryptedKey || row.baseUrl)) {
      return {
        model: await providerModel(deps, choice.provider, choice.model, { apiKey, baseUrl: row.baseUrl }),
        modelId: choice.model,
        offline: false,
      };
    }
  }
  return { model: createOfflineModel(), modelId: OFFLINE_MODEL_ID, offline: true };
};
