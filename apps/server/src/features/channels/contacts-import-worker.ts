import type { TContactImportMapping } from '@switchboard/core';
import { AppError } from '../../platform/errors';
import { serveTask, TaskRefusal } from '../../platform/worker-task';
import { prepareImport, previewCsv } from './contacts-csv';

/** What the import's worker is asked (contacts-import.ts): a preview, or the rows to store. */
export type ContactsCsvTask =
  | { step: 'preview'; buffer: Uint8Array }
  | { step: 'import'; buffer: Uint8Array; mapping: TContactImportMapping; country: string };

/** The worker thread that reads one contacts CSV; the file's faults are answered as refusals. */
serveTask((task: ContactsCsvTask) => {
  const buffer = Buffer.from(task.buffer.buffer, task.buffer.byteOffset, task.buffer.byteLength);
  try {
    return task.step === 'preview' ? previewCsv(buffer) : prepareImport(buffer, task.mapping, task.country);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR')
      throw new TaskRefusal(error.message, error.field);
    throw error;
  }
});
