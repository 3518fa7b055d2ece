import { parentPort, workerData } from 'node:worker_threads';
import type { KnowledgeKind } from '@switchboard/core';
import { readDocument } from './read-document';

/** The worker thread that reads one document (see extract.ts); its answer is the chunks or an error. */
const { kind, buffer } = workerData as { kind: KnowledgeKind; buffer: Uint8Array };
readDocument(kind, Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)).then(
  (chunks) => parentPort?.postMessage({ chunks }),
  (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
