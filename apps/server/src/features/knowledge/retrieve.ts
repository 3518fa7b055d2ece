import { bm25 } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { TtlCache } from '../../platform/ttl-cache';
import { knowledgeChunks, knowledgeDocuments } from './schema';

type ChunkRow = { documentId: string; content: string; terms: Record<string, number>; length: number; name: string };
/** Each agent's chunks, kept 30 s for the scorer (uploads and removals in this process invalidate). */
const chunksByAgent = new TtlCache<ChunkRow[]>(30_000, 500);
export const invalidateKnowledge = (agentId: string) => chunksByAgent.delete(agentId);

export interface RetrievedExcerpt {
  documentId: string;
  name: string;
  excerpt: string;
  score: number;
}

/** The agent's knowledge chunks that best match a question (BM25 over the stored term counts). */
export const retrieveKnowledge = async (
  db: Db,
  agentId: string,
  question: string,
  limit: number,
): Promise<RetrievedExcerpt[]> => {
  const rows = await chunksByAgent.getOrLoad(agentId, () =>
    db
      .select({
        documentId: knowledgeChunks.documentId,
        content: knowledgeChunks.content,
        terms: knowledgeChunks.terms,
        length: knowledgeChunks.length,
        name: knowledgeDocuments.name,
      })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, knowledgeChunks.documentId))
      .where(eq(knowledgeChunks.agentId, agentId)),
  );
  if (!rows.length) return [];
  const scored = bm25(
    question,
    rows.map((row) => ({ item: row, terms: row.terms, length: row.length })),
  );
  return scored.slice(0, limit).map(({ item, score }) => ({
    documentId: item.documentId,
    name: item.name,
    excerpt: item.content,
    score: Math.round(score * 1000) / 1000,
  }));
};
