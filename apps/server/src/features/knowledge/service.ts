import { setImmediate } from 'node:timers/promises';
import { checkUpload, knowledgeKind, type TAddWebsiteResponse, type TKnowledgeDocument } from '@switchboard/core';
import { and, asc, eq, like, lt, sql } from 'drizzle-orm';
import { type BulkColumn, bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { policyOf } from '../../platform/outbound';
import { chunkText, type ReadChunk, readChunk } from './chunk';
import { crawlSite } from './crawl';
import { DocumentRefusedError, readDocumentOffThread } from './extract';
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

/** Chunks stored per statement: on the embedded database one slice holds it for tens of milliseconds. */
export const CHUNKS_PER_STATEMENT = 500;

/** How long a document may stay unready before it counts as left by a stopped process. */
const UNREADY_MAX_AGE = '1 hour';

type StoredChunk = ReadChunk & { documentId: string; position: number };

/** The columns of an agent's chunks, for bulkInsert. */
const chunkColumns = (agentId: string) =>
  ({
    id: ['text', () => newId('chunk')],
    document_id: ['text', (chunk) => chunk.documentId],
    agent_id: ['text', () => agentId],
    position: ['int', (chunk) => chunk.position],
    content: ['text', (chunk) => chunk.content],
    terms: ['jsonb', (chunk) => chunk.terms],
    length: ['int', (chunk) => chunk.length],
  }) satisfies Record<string, BulkColumn<StoredChunk>>;

/**
 * Checks the file (spec order), extracts and chunks its text and stores it. The document is
 * written unready, its chunks a slice per statement (a large CSV has thousands: in one statement
 * the embedded database would answer nobody else until all were in), then marked ready; nothing
 * reads an unready document, and one that fails on the way is deleted with its chunks.
 */
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
  await deleteAbandonedDocuments(db);
  const documentId = newId('document');
  await db.insert(knowledgeDocuments).values({
    id: documentId,
    agentId: input.agentId,
    subaccountId: input.subaccountId,
    name: input.name,
    mimeType: input.mimeType,
    sizeBytes: input.size,
    chunkCount: chunks.length,
    ready: false,
  });
  let row: DocumentRow | undefined;
  try {
    const columns = chunkColumns(input.agentId);
    const stored = chunks.map((chunk, position) => ({ ...chunk, documentId, position }));
    for (let from = 0; from < stored.length; from += CHUNKS_PER_STATEMENT) {
      // PGlite answers a statement already settled: without a turn of the event loop between
      // slices they would run as one block, and requests that came meanwhile would wait for all.
      if (from > 0) await setImmediate();
      await bulkInsert(db, knowledgeChunks, columns, stored.slice(from, from + CHUNKS_PER_STATEMENT));
    }
    [row] = await db
      .update(knowledgeDocuments)
      .set({ ready: true })
      .where(eq(knowledgeDocuments.id, documentId))
      .returning();
  } catch (error) {
    // The cause is what the caller needs; a delete that fails too leaves it to deleteAbandonedDocuments.
    await db
      .delete(knowledgeDocuments)
      .where(eq(knowledgeDocuments.id, documentId))
      .catch(() => undefined);
    throw error;
  }
  if (!row) throw new AppError('DATABASE_ERROR', 'The document could not be stored.');
  invalidateKnowledge(input.agentId);
  return documentView(row);
};

/** Deletes documents (and their chunks) whose storing stopped half-way, when a process stopped during it. */
export const deleteAbandonedDocuments = (db: Db) =>
  db
    .delete(knowledgeDocuments)
    .where(
      and(
        eq(knowledgeDocuments.ready, false),
        lt(knowledgeDocuments.createdAt, sql`now() - ${UNREADY_MAX_AGE}::interval`),
      ),
    );

export const listDocuments = async (db: Db, agentId: string) => {
  const rows = await db
    .select()
    .from(knowledgeDocuments)
    .where(and(eq(knowledgeDocuments.agentId, agentId), eq(knowledgeDocuments.ready, true)))
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

const chunksOf = (text: string): ReadChunk[] => chunkText(text).map(readChunk);

/**
 * Imports a website: crawls it (crawl.ts), then replaces the pages this agent already has from the
 * same site with the new ones in one transaction (a re-crawl on demand is the same call). Each page
 * is a document named by its address, so answers cite the page they came from.
 */
export const addWebsite = async (
  db: Db,
  env: Env,
  input: { agentId: string; subaccountId: string; url: string; maxPages: number },
): Promise<TAddWebsiteResponse> => {
  const site = new URL(input.url).origin;
  let crawled: Awaited<ReturnType<typeof crawlSite>>;
  try {
    crawled = await crawlSite(input.url, policyOf(env), {
      maxPages: Math.min(input.maxPages, env.KNOWLEDGE_CRAWL_MAX_PAGES),
      timeoutMs: env.KNOWLEDGE_CRAWL_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('VALIDATION_ERROR', 'The website could not be reached.', { field: 'url' });
  }
  if (!crawled.pages.length) {
    throw new AppError('VALIDATION_ERROR', 'No readable page was found at this address (or robots.txt disallows it).', {
      field: 'url',
    });
  }
  const pages = crawled.pages.map((page) => ({
    id: newId('document'),
    page,
    chunks: chunksOf(page.title ? `${page.title}\n\n${page.text}` : page.text),
  }));
  const documents = await db.transaction(async (tx) => {
    await tx
      .delete(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.agentId, input.agentId),
          eq(knowledgeDocuments.mimeType, 'text/html'),
          like(knowledgeDocuments.name, `${site.replace(/[\\%_]/g, '\\$&')}/%`),
        ),
      );
    const rows = await tx
      .insert(knowledgeDocuments)
      .values(
        pages.map(({ id, page, chunks }) => ({
          id,
          agentId: input.agentId,
          subaccountId: input.subaccountId,
          name: page.url.slice(0, 2000),
          mimeType: 'text/html',
          sizeBytes: Buffer.byteLength(page.text),
          chunkCount: chunks.length,
        })),
      )
      .returning();
    await bulkInsert(
      tx,
      knowledgeChunks,
      chunkColumns(input.agentId),
      pages.flatMap(({ id, chunks }) => chunks.map((chunk, position) => ({ ...chunk, position, documentId: id }))),
    );
    return rows;
  });
  invalidateKnowledge(input.agentId);
  return {
    site,
    pages: documents.length,
    disallowed: crawled.disallowed,
    failed: crawled.failed,
    documents: documents.map((row) => ({ id: row.id, name: row.name, chunkCount: row.chunkCount })),
  };
};
