import type { TProviderId } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { findAgent } from '../agents/repo';
import { embedderFor } from '../knowledge/embeddings';
import type { ModelChoice } from '../llm/gateway';

/**
 * Semantic similarity of an answer and a reference by the agent's embedding model (the one its
 * knowledge search uses): the cosine of their two vectors, 0-1 (negative cosines count as 0).
 */

export interface CheckEmbedder {
  label: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let x = 0;
  let y = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    dot += (a[index] ?? 0) * (b[index] ?? 0);
    x += (a[index] ?? 0) ** 2;
    y += (b[index] ?? 0) ** 2;
  }
  return x && y ? dot / Math.sqrt(x * y) : 0;
};

/** The similarity, or null when the model failed or answered something unusable (the caller falls back). */
export const semanticSimilarity = async (
  embedder: CheckEmbedder,
  answer: string,
  reference: string,
  signal?: AbortSignal,
): Promise<number | null> => {
  try {
    const [first, second] = await embedder.embed([answer || ' ', reference], signal);
    if (!first?.length || !second?.length) return null;
    return Math.max(0, Math.min(1, cosine(first, second)));
  } catch {
    if (signal?.aborted) throw signal.reason;
    return null;
  }
};

/**
 * The embedding model of the agent under test (its provider's, with the account's key), or null:
 * the semantic checks then use term vectors. A model under test without an agent uses its own provider's.
 */
export const targetEmbedder = async (
  deps: Deps,
  accountId: string,
  target: { kind: 'agent'; agentId: string } | { kind: 'model'; choice: ModelChoice },
): Promise<CheckEmbedder | null> => {
  const provider =
    target.kind === 'agent' ? (await findAgent(deps.db, target.agentId))?.provider : target.choice.provider;
  if (!provider || provider === 'offline') return null;
  try {
    return await embedderFor(deps, accountId, provider as TProviderId);
  } catch {
    return null;
  }
};
