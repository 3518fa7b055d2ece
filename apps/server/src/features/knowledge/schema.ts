import { boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema';

/** A document uploaded to an agent's knowledge; its text is kept in chunks. */
export const knowledgeDocuments = pgTable(
  'knowledge_documents',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** False while its chunks are being stored (slice by slice); such a document is read by nobody. */
    ready: boolean('ready').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('knowledge_documents_agent_idx').on(table.agentId)],
);

export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: text('id').primaryKey(),
    documentId: text('document_id')
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    position: integer('position').notNull(),
    content: text('content').notNull(),
    /** Term frequencies of the chunk, for the keyword (BM25) scorer. */
    terms: jsonb('terms').$type<Record<string, number>>().notNull(),
    length: integer('length').notNull(),
    /** The chunk's embedding for meaning search, and the model that made it (null until indexed). */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
  },
  (table) => [index('knowledge_chunks_agent_idx').on(table.agentId)],
);
