import type { KnowledgeKind } from '@switchboard/core';
import { serveTask, TaskRefusal } from '../../platform/worker-task';
import { readDocument } from './read-document';
import { capTypedArrays } from './typed-array-cap';
import { UnpackLimitError } from './zip-entries';

/** What the reader's worker is given (extract.ts). */
export interface ReadInput {
  kind: KnowledgeKind;
  buffer: Uint8Array;
  /** No buffer of the read may be larger: a DOCX's unpacked entries together, a PDF's one stream. */
  maxUnpackedBytes: number;
}

/** The worker thread that reads one document (see extract.ts); its answer is the chunks, a refusal or an error. */
serveTask(async ({ kind, buffer, maxUnpackedBytes }: ReadInput) => {
  const cap = capTypedArrays(maxUnpackedBytes);
  const refusal = () =>
    new TaskRefusal(
      `This ${kind.toUpperCase()} file unpacks to more than ${Math.round(maxUnpackedBytes / 1024 / 1024)} MB and was not read.`,
    );
  try {
    const chunks = await readDocument(
      kind,
      Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength),
      maxUnpackedBytes,
    );
    // A reader may catch the cap's error and carry on with what it had read.
    if (cap.exceeded) throw refusal();
    return chunks;
  } catch (error) {
    if (error instanceof UnpackLimitError || cap.exceeded) throw refusal();
    throw error;
  }
});
