import { setImmediate } from 'node:timers/promises';
import type { TContactImportMapping, TContactImportPreview, TContactImportReport } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { runTask, TaskLimitError, TaskRefusal, taskEntry } from '../../platform/worker-task';
import { messagingSettings } from './contacts';
import type { ContactSlice, PreparedImport } from './contacts-csv';
import type { ContactsCsvTask } from './contacts-import-worker';
import { contacts } from './schema';

/**
 * The contacts CSV import, in two steps (preview, then import with a column mapping). The file is
 * parsed and checked in a worker thread (contacts-csv.ts); the main thread only stores the rows,
 * a slice per statement with a turn of the event loop between two, so requests that come during a
 * large import wait for one slice, not the whole file.
 *
 * The slices are not one transaction: on the embedded database a transaction holds its only
 * connection, and every request with it, until it ends. Each contact is written whole by one
 * statement, and importing a file again updates the contacts it already added, so an import that
 * fails half-way is reported with how many contacts were saved and is finished by sending the same
 * file again. The file's faults (encoding, columns, limits) are all found before anything is written.
 */

/** Limits of reading one file; its size and rows are bounded already (5 MB, 50,000 rows). */
const READ_LIMITS = { timeoutMs: 60_000, memoryMb: 512 };

const ENTRY = taskEntry(import.meta.url, 'contacts-import-worker');

const readOffThread = async <T>(task: ContactsCsvTask): Promise<T> => {
  try {
    return await runTask<T>(ENTRY, task, READ_LIMITS);
  } catch (error) {
    if (error instanceof TaskRefusal) throw new AppError('VALIDATION_ERROR', error.message, { field: error.field });
    if (error instanceof TaskLimitError)
      throw new AppError('VALIDATION_ERROR', 'The file could not be read in time. Split it into smaller files.', {
        field: 'file',
      });
    throw error;
  }
};

/** Step 1: the file's columns, a few rows and a suggested mapping. */
export const previewImport = (buffer: Buffer): Promise<TContactImportPreview> =>
  readOffThread<TContactImportPreview>({ step: 'preview', buffer });

/**
 * Step 2: valid new numbers are added, known numbers get the new name and tags (their opt-out
 * state is kept), invalid and repeated rows are reported with their line.
 */
export const importContacts = async (
  deps: Deps,
  subaccountId: string,
  buffer: Buffer,
  mapping: TContactImportMapping,
): Promise<TContactImportReport> => {
  const country = mapping.defaultCountry ?? (await messagingSettings(deps.db, subaccountId)).defaultCountry;
  const prepared = await readOffThread<PreparedImport>({ step: 'import', buffer, mapping, country });
  const { imported, updated } = await storeContacts(deps, subaccountId, prepared.slices);
  return { imported, updated, rejected: prepared.rejected, rejectedCount: prepared.rejectedCount };
};

/** Stores the slices one statement each; a failure after the first says how many contacts were saved. */
const storeContacts = async (deps: Deps, subaccountId: string, slices: ContactSlice[]) => {
  const total = slices.reduce((sum, slice) => sum + slice.size, 0);
  const counts = { imported: 0, updated: 0 };
  for (const [index, slice] of slices.entries()) {
    // PGlite answers a statement already settled: without a turn of the event loop between
    // slices they would run as one block, and requests that came meanwhile would wait for all.
    if (index > 0) await setImmediate();
    try {
      for (const row of await upsertSlice(deps.db, subaccountId, slice)) {
        if (row.inserted) counts.imported += 1;
        else counts.updated += 1;
      }
    } catch (error) {
      if (index === 0) throw error;
      const saved = counts.imported + counts.updated;
      deps.log.error({ err: error, subaccountId, saved, total }, 'contacts import stopped part-way');
      throw new AppError(
        'DATABASE_ERROR',
        `The import stopped after ${saved.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} contacts were saved. Import the same file again to save the rest: the contacts already saved are updated, not added twice.`,
        { reason: 'partial_import' },
      );
    }
  }
  return counts;
};

/** One statement: the slice's contacts added, or merged into the contacts with the same number. */
const upsertSlice = async (db: Db, subaccountId: string, slice: ContactSlice) => {
  const result = await db.execute(sql`
    INSERT INTO ${contacts} (id, subaccount_id, phone, name, tags, time_zone, attributes)
    SELECT t.id, ${subaccountId}, t.phone, t.name, t.tags::text[], t.time_zone, t.attributes FROM unnest(
      ${slice.id}::text[],
      ${slice.phone}::text[],
      ${slice.name}::text[],
      ${slice.tags}::text[],
      ${slice.timeZone}::text[],
      ${slice.attributes}::jsonb[]
    ) AS t(id, phone, name, tags, time_zone, attributes)
    ON CONFLICT (subaccount_id, phone) DO UPDATE SET
      name = COALESCE(EXCLUDED.name, ${contacts}.name),
      tags = ARRAY(SELECT DISTINCT unnest(${contacts}.tags || EXCLUDED.tags)),
      time_zone = COALESCE(EXCLUDED.time_zone, ${contacts}.time_zone),
      attributes = ${contacts}.attributes || EXCLUDED.attributes,
      updated_at = now()
    RETURNING (xmax = 0) AS inserted`);
  return rowsOf<{ inserted: boolean }>(result);
};
