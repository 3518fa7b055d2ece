import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { defineJob, enqueueJob, RetryableJobError } from '../../platform/jobs';
import { findAgentCached } from '../agents/cache';
import { embedderFor } from './embeddings';
import { invalidateKnowledge } from './retrieve';
import { knowledgeChunks } from './schema';

/**
 * Indexing for meaning search: a durable job embeds an agent's passages that have no vector of its
 * provider's embedding model yet, a batch at a time, so an interrupted run resumes where it stopped.
 * It is queued when documents or a website are added, and whenever retrieval finds passages left
 * (a key added later, or an agent moved to a provider with embeddings).
 */
export const KNOWLEDGE_EMBED_JOB = 'knowledge:embed';
const BATCH = 96;
/** Characters of a passage sent to the model (passages are about 1,000; the model takes ~8,000 tokens). */
const MAX_CHARS = 8_000;
const THROTTLE_MS = 60_000;
const lastScheduled = new Map<string, number>();

/**
 * Queues the job for an agent (at most once a minute per agent and model, from any process; `reason`
 * names an event such as a new document, which always queues).
 */
export const scheduleEmbedding = (deps: Deps, agentId: string, model: string, reason?: string): void => {
  const key = `${agentId}:${model}`;
  const now = Date.now();
  if (!reason && now - (lastScheduled.get(key) ?? 0) < THROTTLE_MS) return;
  lastScheduled.set(key, now);
  if (lastScheduled.size > 10_000) lastScheduled.clear();
  const bucket = reason ?? String(Math.floor(now / THROTTLE_MS));
  enqueueJob(deps, {
    type: KNOWLEDGE_EMBED_JOB,
    payload: { agentId },
    idempotencyKey: `knowledge-embed:${agentId}:${model}:${bucket}`,
  }).catch((error) => deps.log.warn({ err: error, agentId }, 'knowledge indexing could not be queued'));
};

/** Stores the vectors of chunks (in the order of `ids`) with their model, in one statement. */
export const storeEmbeddings = async (db: Db, ids: string[], vectors: number[][], model: string) => {
  await db.execute(
    sql`UPDATE ${knowledgeChunks} SET embedding = v.e::real[], embedding_model = ${model}
        FROM unnest(${sql.param(ids)}::text[], ${sql.param(vectors.map((vector) => `{${vector.join(',')}}`))}::text[]) AS v(id, e)
        WHERE ${knowledgeChunks.id} = v.id`,
  );
};

/** After documents were added: queues their indexing when the agent's provider has an embedding model. */
export const indexNewPassages = async (deps: Deps, agentId: string, reason: string): Promise<void> => {
  const agent = await findAgentCached(deps.db, agentId);
  const embedder = agent ? await embedderFor(deps, agent.accountId, agent.provider) : null;
  if (embedder) scheduleEmbedding(deps, agentId, embedder.model, reason);
};

const embedPassages = async (deps: Deps, agentId: string) => {
  const agent = await findAgentCached(deps.db, agentId);
  const embedder = agent ? await embedderFor(deps, agent.accountId, agent.provider) : null;
  if (!embedder) return { embedded: 0, model: null };
  let embedded = 0;
  for (;;) {
    const rows = await deps.db
      .select({ id: knowledgeChunks.id, content: knowledgeChunks.content })
      .from(knowledgeChunks)
      .where(
        and(
          eq(knowledgeChunks.agentId, agentId),
          or(isNull(knowledgeChunks.embeddingModel), ne(knowledgeChunks.embeddingModel, embedder.model)),
        ),
      )
      .orderBy(asc(knowledgeChunks.id))
      .limit(BATCH);
    if (!rows.length) break;
    let vectors: number[][];
    try {
      vectors = await embedder.embed(rows.map((row) => row.content.slice(0, MAX_CHARS)));
    } catch (error) {
      throw new RetryableJobError('The embedding model did not answer', { cause: error });
    }
    if (vectors.length !== rows.length) throw new Error('The embedding model answered a different number of vectors');
    await storeEmbeddings(
      deps.db,
      rows.map((row) => row.id),
      vectors,
      embedder.model,
    );
    embedded += rows.length;
    invalidateKnowledge(agentId);
  }
  return { embedded, model: embedder.model };
};

/** Embeds an agent's passages that have no vector of its provider's model yet. */
export const knowledgeEmbedJob = defineJob({
  type: KNOWLEDGE_EMBED_JOB,
  queue: 'knowledge',
  schema: z.object({ agentId: z.string() }),
  handler: (deps, job) => embedPassages(deps, job.payload.agentId),
});
