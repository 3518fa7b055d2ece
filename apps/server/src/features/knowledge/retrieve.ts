import { type Bm25Index, buildBm25Index, searchBm25 } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { TtlCache } from '../../platform/ttl-cache';
import { knowledgeChunks, knowledgeDocuments } from './schema';

type ChunkRow = { documentId: string; content: string; terms: Record<string, number>; length: number; name: string };
type AgentKnowledge = { rows: Omit<ChunkRow, 'terms' | 'length'>[]; index: Bm25Index };
/**
 * Each agent's chunks and their BM25 index, kept 30 s (uploads and removals in this process
 * invalidate). The index is built once per load, so a question scores only the chunks holding its terms.
 */
const chunksByAgent = new TtlCache<AgentKnowledge>(30_000, 500);
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
  const knowledge = await chunksByAgent.getOrLoad(agentId, async () => {
    const rows: ChunkRow[] = await db
      .select({
        documentId: knowledgeChunks.documentId,
        content: knowledgeChunks.content,
        terms: knowledgeChunks.terms,
        length: knowledgeChunks.length,
        name: knowledgeDocuments.name,
      })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, knowledgeChunks.documentId))
      .where(eq(knowledgeChunks.agentId, agentId));
    return {
      rows: rows.map(({ documentId, content, name }) => ({ documentId, content, name })),
      index: buildBm25Index(rows),
    };
  });
  if (!knowledge.rows.length) return [];
  return searchBm25(knowledge.index, question, limit).flatMap(({ id, score }) => {
    const item = knowledge.rows[id];
    return item
      ? [
          {
            documentId: item.documentId,
            name: item.name,
            excerpt: item.content,
            score: Math.round(score * 1000) / 1000,
          },
        ]
      : [];
  });
};
