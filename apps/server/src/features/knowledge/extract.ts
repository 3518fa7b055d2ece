import { Worker } from 'node:worker_threads';
import type { KnowledgeKind } from '@switchboard/core';
import type { Env } from '../../platform/env';
import type { ReadChunk } from './chunk';
import { declaredUncompressedSize } from './zip-size';

/**
 * Reads an uploaded document off the main thread: each file gets a worker thread with a time
 * limit (KNOWLEDGE_EXTRACT_TIMEOUT_MS) and a memory limit (KNOWLEDGE_EXTRACT_MEMORY_MB), so no
 * input (a markdown file built to make a parser backtrack, a huge CSV, a PDF or DOCX that inflates
 * without end) can stall the server or take its memory. A DOCX that declares more than
 * KNOWLEDGE_MAX_UNCOMPRESSED_BYTES unpacked is refused before it is opened.
 */
export class DocumentRefusedError extends Error {}

const MB = 1024 * 1024;

/** The worker's entry: beside this file in the sources (compiled by tsx), beside main.js when built. */
const workerEntry = (): URL =>
  import.meta.url.endsWith('.ts')
    ? new URL('./extract-worker.dev.mjs', import.meta.url)
    : new URL('./extract-worker.js', import.meta.url);

export const readDocumentOffThread = async (env: Env, kind: KnowledgeKind, buffer: Buffer): Promise<ReadChunk[]> => {
  if (kind === 'docx') {
    const declared = declaredUncompressedSize(buffer);
    if (declared !== null && declared > env.KNOWLEDGE_MAX_UNCOMPRESSED_BYTES) {
      throw new DocumentRefusedError(
        `This DOCX file unpacks to more than ${Math.round(env.KNOWLEDGE_MAX_UNCOMPRESSED_BYTES / MB)} MB and was not read.`,
      );
    }
  }
  const worker = new Worker(workerEntry(), {
    workerData: { kind, buffer },
    resourceLimits: { maxOldGenerationSizeMb: env.KNOWLEDGE_EXTRACT_MEMORY_MB, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<ReadChunk[]>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new DocumentRefusedError(
              `The file took longer than ${Math.round(env.KNOWLEDGE_EXTRACT_TIMEOUT_MS / 1000)} s to read and was not added.`,
            ),
          ),
        ),
      env.KNOWLEDGE_EXTRACT_TIMEOUT_MS,
    );
    worker.once('message', (answer: { chunks?: ReadChunk[]; error?: string }) =>
      settle(() => (answer.chunks ? resolve(answer.chunks) : reject(new Error(answer.error ?? 'unreadable')))),
    );
    worker.once('error', (error: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new DocumentRefusedError(
                `The file needs more than ${env.KNOWLEDGE_EXTRACT_MEMORY_MB} MB of memory to read and was not added.`,
              )
            : error,
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the reader stopped with code ${code}`))));
  });
};
