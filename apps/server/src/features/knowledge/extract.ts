import type { KnowledgeKind } from '@switchboard/core';
import type { Env } from '../../platform/env';
import { runTask, TaskLimitError, TaskRefusal, taskEntry } from '../../platform/worker-task';
import type { ReadChunk } from './chunk';
import type { ReadInput } from './extract-worker';

/**
 * Reads an uploaded document off the main thread: each file gets a worker thread of its own
 * (platform/worker-task.ts) with a time limit (KNOWLEDGE_EXTRACT_TIMEOUT_MS) and a memory limit
 * (KNOWLEDGE_EXTRACT_MEMORY_MB), so no input (a markdown file built to make a parser backtrack, a
 * huge CSV, a PDF or DOCX that inflates without end) can stall the server or take its memory. The
 * heap limit does not cover buffers, so the reader keeps those within
 * KNOWLEDGE_MAX_UNCOMPRESSED_BYTES itself (extract-worker.ts); the worker ends with the read, and
 * its memory with it.
 */
export class DocumentRefusedError extends Error {}

const ENTRY = taskEntry(import.meta.url, 'extract-worker');

export const readDocumentOffThread = async (env: Env, kind: KnowledgeKind, buffer: Buffer): Promise<ReadChunk[]> => {
  const input: ReadInput = { kind, buffer, maxUnpackedBytes: env.KNOWLEDGE_MAX_UNCOMPRESSED_BYTES };
  try {
    return await runTask<ReadChunk[]>(ENTRY, input, {
      timeoutMs: env.KNOWLEDGE_EXTRACT_TIMEOUT_MS,
      memoryMb: env.KNOWLEDGE_EXTRACT_MEMORY_MB,
    });
  } catch (error) {
    if (error instanceof TaskRefusal) throw new DocumentRefusedError(error.message);
    if (error instanceof TaskLimitError)
      throw new DocumentRefusedError(
        error.limit === 'time'
          ? `The file took longer than ${Math.round(env.KNOWLEDGE_EXTRACT_TIMEOUT_MS / 1000)} s to read and was not added.`
          : `The file needs more than ${env.KNOWLEDGE_EXTRACT_MEMORY_MB} MB of memory to read and was not added.`,
      );
    throw error;
  }
};
