import { checkUpload, knowledgeKind, type TKnowledgeDocument } from '@switchboard/core';
import { and, asc, eq } from 'drizzle-orm';
import { bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { DocumentRefusedError, readDocumentOffThread } from './extract';
import type { ReadChunk } from './read-document';
import { invalidateKnowledge } from './retrieve';
import { knowledgeChunks, knowledgeDocuments } from './schema';

type DocumentRow = typeof knowledgeDocuments.$inferSelect;

export const documentView = (row: DocumentRow): TKnowledgeDocument => ({
  id: row.id,
  agentId: row.agentId,
  name: row.name,
  mimeType: row.mimeType,
  sizeBytes: row.sizeBytes,
  chunkCount: row.chunkCount,
  createdAt: row.createdAt.toISOString(),
});

export const uploadFailure = (message: string) =>
  new AppError('MEDIA_UPLOAD_FAILED', message, {
    field: 'file',
    status: message === 'File exceeds 25MB limit' ? 413 : 422,
  });

/** Checks the file (spec order), extracts and chunks its text and stores it in one transaction. */
export const addDocument = async (
  db: Db,
  env: Env,
  input: { agentId: string; subaccountId: string; name: string; mimeType: string; buffer: Buffer; size: number },
): Promise<TKnowledgeDocument> => {
  const refused = checkUpload({ name: input.name, size: input.size, mimeType: input.mimeType });
  if (refused) throw uploadFailure(refused);
  const kind = knowledgeKind(input.name, input.mimeType);
  if (!kind) throw uploadFailure('Unsupported file type');
  let chunks: ReadChunk[];
  try {
    chunks = await readDocumentOffThread(env, kind, input.buffer);
  } catch (error) {
    if (error instanceof DocumentRefusedError) throw uploadFailure(error.message);
    throw uploadFailure('The file could not be read. Check that it is not damaged or password-protected.');
  }
  const documentId = newId('document');
  const row = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(knowledgeDocuments)
      .values({
        id: documentId,
        agentId: input.agentId,
        subaccountId: input.subaccountId,
        name: input.name,
        mimeType: input.mimeType,
        sizeBytes: input.size,
        chunkCount: chunks.length,
      })
      .returning();
    // One statement for any number of chunks (a large CSV has thousands; a VALUES list would pass
    // PostgreSQL's limit of 65535 parameters).
    await bulkInsert(
      tx,
      knowledgeChunks,
      {
        id: ['text', () => newId('chunk')],
        document_id: ['text', () => documentId],
        agent_id: ['text', () => input.agentId],
        position: ['int', (chunk) => chunk.position],
        content: ['text', (chunk) => chunk.content],
        terms: ['jsonb', (chunk) => JSON.stringify(chunk.terms)],
        length: ['int', (chunk) => chunk.length],
      },
      chunks.map((chunk, position) => ({ ...chunk, position })),
    );
    return inserted[0];
  });
  if (!row) throw new AppError('DATABASE_ERROR', 'The document could not be stored.');
  invalidateKnowledge(input.agentId);
  return documentView(row);
};

export const listDocuments = async (db: Db, agentId: string) => {
  const rows = await db
    .select()
    .from(knowledgeDocuments)
    .where(eq(knowledgeDocuments.agentId, agentId))
    .orderBy(asc(knowledgeDocuments.createdAt));
  return rows.map(documentView);
};

export const deleteDocument = async (db: Db, agentId: string, documentId: string) => {
  const rows = await db
    .delete(knowledgeDocuments)
    .where(and(eq(knowledgeDocuments.id, documentId), eq(knowledgeDocuments.agentId, agentId)))
    .returning({ id: knowledgeDocuments.id });
  if (!rows.length) throw new AppError('NOT_FOUND', 'The document does not exist or was deleted.');
  invalidateKnowledge(agentId);
};
