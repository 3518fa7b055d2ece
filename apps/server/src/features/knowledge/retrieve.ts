import {
  type Bm25Index,
  buildBm25Index,
  buildVectorIndex,
  fuseRankings,
  nearestVectors,
  parseVectorText,
  searchBm25,
  type TProviderId,
  type VectorIndex,
} from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { TtlCache } from '../../platform/ttl-cache';
import { scheduleEmbedding } from './embedding-job';
import { type Embedder, embedderFor } from './embeddings';
import { knowledgeChunks, knowledgeDocuments } from './schema';

type ChunkRow = {
  documentId: string;
  content: string;
  terms: Record<string, number>;
  length: number;
  name: string;
  embedding: string | null;
  embeddingModel: string | null;
};
type AgentKnowledge = {
  rows: { documentId: string; content: string; name: string }[];
  index: Bm25Index;
  /** The passages' vectors of the model most of them were embedded with, if any. */
  vectors: { model: string; index: VectorIndex } | null;
  /** Passages without a vector of that model (new ones, or embedded by another model). */
  unindexed: number;
  /** About what the above holds in memory. */
  bytes: number;
};

/** Kept knowledge of all agents together stays under this (the least recently loaded goes first). */
export const KNOWLEDGE_CACHE_BYTES = 64 * 1024 * 1024;

/** About the memory an agent's loaded knowledge takes: its texts (two bytes a character), index and vectors. */
const knowledgeBytes = (knowledge: Omit<AgentKnowledge, 'bytes'>): number => {
  let bytes = knowledge.index.lengths.byteLength;
  for (const row of knowledge.rows) bytes += 2 * (row.content.length + row.name.length + row.documentId.length) + 64;
  for (const [term, posting] of knowledge.index.postings) {
    bytes += 2 * term.length + posting.ids.byteLength + posting.tfs.byteLength + 96;
  }
  if (knowledge.vectors) bytes += knowledge.vectors.index.matrix.byteLength + knowledge.vectors.index.ids.byteLength;
  return bytes;
};

/**
 * Each agent's chunks, their BM25 index and their embedding vectors, kept 30 s (uploads, removals
 * and indexing in this process invalidate), at most 500 agents and KNOWLEDGE_CACHE_BYTES together. The indexes are built once per load, so a question
 * scores only the chunks holding its terms, and compares its vector with one array.
 */
const chunksByAgent = new TtlCache<AgentKnowledge>(30_000, 500, {
  maxBytes: KNOWLEDGE_CACHE_BYTES,
  sizeOf: (knowledge) => knowledge.bytes,
});
export const invalidateKnowledge = (agentId: string) => chunksByAgent.delete(agentId);

export interface RetrievedExcerpt {
  documentId: string;
  name: string;
  excerpt: string;
  score: number;
}

/** Meaning search for one question: the agent provider's embedder, and what to do about unindexed passages. */
export interface MeaningSearch {
  embedder: Embedder;
  onUnindexed?: (model: string) => void;
}

/** How long a reply waits for the question's embedding before answering from keywords alone. */
const QUESTION_EMBEDDING_TIMEOUT_MS = 2_000;

const loadKnowledge = (db: Db, agentId: string) =>
  chunksByAgent.getOrLoad(agentId, async () => {
    const rows: ChunkRow[] = await db
      .select({
        documentId: knowledgeChunks.documentId,
        content: knowledgeChunks.content,
        terms: knowledgeChunks.terms,
        length: knowledgeChunks.length,
        name: knowledgeDocuments.name,
        // As text, read the same way on both drivers.
        embedding: sql<string | null>`${knowledgeChunks.embedding}::text`,
        embeddingModel: knowledgeChunks.embeddingModel,
      })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, knowledgeChunks.documentId))
      .where(and(eq(knowledgeChunks.agentId, agentId), eq(knowledgeDocuments.ready, true)));
    const counts = new Map<string, number>();
    for (const row of rows) {
      if (row.embeddingModel && row.embedding)
        counts.set(row.embeddingModel, (counts.get(row.embeddingModel) ?? 0) + 1);
    }
    const [model] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    const vectors = model
      ? rows.map((row) => (row.embeddingModel === model && row.embedding ? parseVectorText(row.embedding) : null))
      : [];
    const dims = vectors.find((vector) => vector)?.length ?? 0;
    const knowledge = {
      rows: rows.map(({ documentId, content, name }) => ({ documentId, content, name })),
      index: buildBm25Index(rows),
      vectors: model && dims ? { model, index: buildVectorIndex(vectors, dims) } : null,
      unindexed: rows.length - (model ? (counts.get(model) ?? 0) : 0),
    };
    return { ...knowledge, bytes: knowledgeBytes(knowledge) };
  });

/**
 * The agent's knowledge chunks that best match a question: BM25 over the stored term counts and,
 * with meaning search, the nearest embeddings too, the two rankings merged by reciprocal rank
 * fusion. A question whose embedding fails or is slow is answered from keywords alone.
 */
export const retrieveKnowledge = async (
  db: Db,
  agentId: string,
  question: string,
  limit: number,
  meaning?: MeaningSearch,
): Promise<RetrievedExcerpt[]> => {
  const knowledge = await loadKnowledge(db, agentId);
  if (!knowledge.rows.length) return [];
  if (meaning) {
    const stale = knowledge.vectors?.model !== meaning.embedder.model;
    if (stale || knowledge.unindexed > 0) meaning.onUnindexed?.(meaning.embedder.model);
  }
  const vectors = meaning && knowledge.vectors?.model === meaning.embedder.model ? knowledge.vectors : null;
  if (!meaning || !vectors) {
    return searchBm25(knowledge.index, question, limit).flatMap(({ id, score }) => excerptOf(knowledge, id, score, 3));
  }
  const [keywords, nearest] = await Promise.all([
    searchBm25(knowledge.index, question, limit * 2),
    meaning.embedder
      .embed([question], AbortSignal.timeout(QUESTION_EMBEDDING_TIMEOUT_MS))
      .then(([vector]) => (vector ? nearestVectors(vectors.index, vector, limit * 2) : []))
      .catch(() => []),
  ]);
  const fused = fuseRankings([keywords.map((item) => item.id), nearest.map((item) => item.id)], limit);
  return fused.flatMap(({ id, score }) => excerptOf(knowledge, id, score, 4));
};

const excerptOf = (knowledge: AgentKnowledge, id: number, score: number, digits: number): RetrievedExcerpt[] => {
  const item = knowledge.rows[id];
  const scale = 10 ** digits;
  return item
    ? [
        {
          documentId: item.documentId,
          name: item.name,
          excerpt: item.content,
          score: Math.round(score * scale) / scale,
        },
      ]
    : [];
};

/**
 * Retrieval for an agent's reply: hybrid when the agent's provider offers an embedding model (and
 * the passages not yet embedded are queued for it), keywords alone otherwise.
 */
export const retrieveForAgent = async (
  deps: Deps,
  agent: { id: string; accountId: string; provider: TProviderId },
  question: string,
  limit: number,
): Promise<RetrievedExcerpt[]> => {
  // An agent without knowledge (most chat turns) needs no embedder.
  if (!(await loadKnowledge(deps.db, agent.id)).rows.length) return [];
  const embedder = await embedderFor(deps, agent.accountId, agent.provider);
  return retrieveKnowledge(
    deps.db,
    agent.id,
    question,
    limit,
    embedder ? { embedder, onUnindexed: (model) => scheduleEmbedding(deps, agent.id, model) } : undefined,
  );
};

/** What an agent's knowledge search does now, for its knowledge card. */
export const searchStatus = async (
  deps: Deps,
  agent: { id: string; accountId: string; provider: TProviderId },
): Promise<{ mode: 'hybrid' | 'keyword'; model: string | null; indexed: number; total: number }> => {
  const embedder = await embedderFor(deps, agent.accountId, agent.provider);
  const knowledge = await loadKnowledge(deps.db, agent.id);
  const total = knowledge.rows.length;
  if (!embedder) return { mode: 'keyword', model: null, indexed: 0, total };
  const indexed = knowledge.vectors?.model === embedder.model ? total - knowledge.unindexed : 0;
  if (indexed < total) scheduleEmbedding(deps, agent.id, embedder.model);
  return { mode: 'hybrid', model: embedder.label, indexed, total };
};
