import { EMBEDDING_DIMENSIONS, type TProviderId } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { defineReaction } from '../../platform/domain-events';
import { providerFetchFor } from '../../platform/outbound';
import { TtlCache } from '../../platform/ttl-cache';
import { providerCredentials } from '../llm/models';

/**
 * Embedding models for meaning search. An agent whose provider offers one (OpenAI:
 * text-embedding-3-small, shortened to 256 dimensions) gets hybrid retrieval with the account's own
 * key; every other agent is searched by keywords (BM25) alone.
 */
export const OPENAI_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface Embedder {
  /** What the stored vectors are tagged with: vectors of another model are never compared. */
  model: string;
  label: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

const embedders = new TtlCache<Embedder | null>(10_000, 1000);

/** The embedder of an agent's provider for this account, or null (keyword search alone). */
export const embedderFor = (
  deps: Deps,
  accountId: string,
  provider: TProviderId,
): Promise<Embedder | null> | Embedder | null => {
  if (provider !== 'openai') return null;
  return embedders.getOrLoad(`${accountId}:${provider}`, async () => {
    const credentials = await providerCredentials(deps, accountId, provider);
    if (!credentials) return null;
    // The SDKs are loaded on first use: a server whose accounts have no OpenAI key never holds them.
    const [{ createOpenAI }, { embedMany }] = await Promise.all([import('@ai-sdk/openai'), import('ai')]);
    const model = createOpenAI({
      apiKey: credentials.apiKey,
      baseURL: credentials.baseUrl ?? deps.env.OPENAI_BASE_URL,
      fetch: providerFetchFor(deps.env, credentials.baseUrl),
    }).textEmbeddingModel(OPENAI_EMBEDDING_MODEL);
    return {
      model: `openai:${OPENAI_EMBEDDING_MODEL}:${EMBEDDING_DIMENSIONS}`,
      label: OPENAI_EMBEDDING_MODEL,
      embed: async (texts, signal) => {
        const result = await embedMany({
          model,
          values: texts,
          // A reply must not wait for retries; the indexing job retries on its own.
          maxRetries: 0,
          abortSignal: signal,
          providerOptions: { openai: { dimensions: EMBEDDING_DIMENSIONS } },
        });
        return result.embeddings;
      },
    };
  });
};

/** Saving or removing a provider key drops the account's embedders with its other cached clients. */
export const dropEmbeddersOnKeyChange = defineReaction({
  event: 'provider_key.changed',
  name: 'knowledge.drop-embedders',
  runs: 'every-process',
  handle: async (_deps, { accountId }) => {
    embedders.deleteWhere((key) => key.startsWith(`${accountId}:`));
  },
});
