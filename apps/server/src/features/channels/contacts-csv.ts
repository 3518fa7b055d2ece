import {
  CONTACT_IMPORT_MAX_BYTES,
  CONTACT_IMPORT_MAX_ROWS,
  INVALID_NUMBER_MESSAGE,
  isTimeZone,
  type TContactImportMapping,
  type TContactImportPreview,
  type TContactImportReport,
  ZContactTag,
} from '@switchboard/core';
import { papa } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { toE164 } from './phone';

/**
 * Reading a contacts CSV: the file's checks, its preview and the rows an import stores. Runs in
 * the import's worker thread (contacts-import.ts), never on the server's main thread: a file of
 * 50,000 rows takes seconds to parse and check, number by number.
 */

/** An uploaded CSV's rows: UTF-8 only (a BOM is dropped), within the size and row limits. */
const readCsv = (buffer: Buffer): string[][] => {
  if (buffer.length === 0)
    throw new AppError(
      'VALIDATION_ERROR',
      'The file is empty. Upload a CSV with a header row and one contact per row.',
      { field: 'file' },
    );
  if (buffer.length > CONTACT_IMPORT_MAX_BYTES)
    throw new AppError(
      'VALIDATION_ERROR',
      `The file is larger than ${CONTACT_IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
      { field: 'file' },
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.', {
      field: 'file',
    });
  }
  if (text.includes('\u0000'))
    throw new AppError('VALIDATION_ERROR', 'The file is not a CSV text file (it holds binary data).', {
      field: 'file',
    });
  const parsed = papa().parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    preview: CONTACT_IMPORT_MAX_ROWS + 2,
  });
  const rows = parsed.data.filter((row) => Array.isArray(row));
  if (rows.length < 2)
    throw new AppError(
      'VALIDATION_ERROR',
      'The file has no contacts. Upload a CSV with a header row and one contact per row.',
      { field: 'file' },
    );
  if (rows.length - 1 > CONTACT_IMPORT_MAX_ROWS)
    throw new AppError(
      'VALIDATION_ERROR',
      `The file has more than ${CONTACT_IMPORT_MAX_ROWS.toLocaleString('en-US')} contacts. Split it into smaller files.`,
      { field: 'file' },
    );
  return rows.map((row) => row.map((cell) => String(cell ?? '').trim()));
};

const guess = (columns: string[], words: RegExp) => columns.find((column) => words.test(column)) ?? null;

export const previewCsv = (buffer: Buffer): TContactImportPreview => {
  const [header = [], ...rows] = readCsv(buffer);
  const columns = header.map((name, index) => name || `Column ${index + 1}`);
  return {
    columns,
    sampleRows: rows.slice(0, 5),
    rowCount: rows.length,
    suggestedMapping: {
      phone: guess(columns, /phone|mobile|cell|number|tel|whatsapp/i),
      name: guess(columns, /name/i),
      tags: guess(columns, /tag|group|segment|list/i),
      timeZone: guess(columns, /time ?zone|^tz$|zone/i),
    },
  };
};

const attributeKey = (column: string) =>
  column
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40) || 'column';

/** Contacts stored per statement: on the embedded database one slice holds it for a few milliseconds. */
export const CONTACTS_PER_STATEMENT = 250;

/**
 * One statement's contacts, each column as the PostgreSQL array literal the statement reads, built
 * here in the worker: the main thread passes them on as they are (converting 50,000 rows there,
 * or even receiving them as objects, would hold it). Tags are array literals themselves, attributes JSON.
 */
export interface ContactSlice {
  size: number;
  id: string;
  phone: string;
  name: string;
  tags: string;
  timeZone: string;
  attributes: string;
}

export type PreparedImport = Pick<TContactImportReport, 'rejected' | 'rejectedCount'> & { slices: ContactSlice[] };

interface ContactRow {
  phone: string;
  name: string | null;
  tags: string;
  timeZone: string | null;
  attributes: string;
}

/** A PostgreSQL array literal of texts (NULL for null), as node-postgres writes an array parameter. */
const arrayLiteral = (values: (string | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : `"${value.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

const sliced = (rows: ContactRow[]): ContactSlice[] => {
  const slices: ContactSlice[] = [];
  for (let from = 0; from < rows.length; from += CONTACTS_PER_STATEMENT) {
    const slice = rows.slice(from, from + CONTACTS_PER_STATEMENT);
    const column = (value: (row: ContactRow) => string | null) => arrayLiteral(slice.map(value));
    slices.push({
      size: slice.length,
      id: column(() => newId('contact')),
      phone: column((row) => row.phone),
      name: column((row) => row.name),
      tags: column((row) => row.tags),
      timeZone: column((row) => row.timeZone),
      attributes: column((row) => row.attributes),
    });
  }
  return slices;
};

/** The column index of each mapped field; a column the file does not have is refused. */
const mappedColumns = (header: string[], mapping: TContactImportMapping) => {
  const columns = header.map((name, index) => name || `Column ${index + 1}`);
  const index = (column: string | undefined, field: string) => {
    if (column === undefined) return -1;
    const at = columns.indexOf(column);
    if (at < 0)
      throw new AppError('VALIDATION_ERROR', `The file has no column "${column}"`, { field: `mapping.${field}` });
    return at;
  };
  return {
    phone: index(mapping.phone, 'phone'),
    name: index(mapping.name, 'name'),
    tags: index(mapping.tags, 'tags'),
    timeZone: index(mapping.timeZone, 'timeZone'),
    attributes: (mapping.attributes ?? []).map(
      (column) => [attributeKey(column), index(column, 'attributes')] as const,
    ),
  };
};

/**
 * Reads the CSV with the column mapping: valid new numbers become rows to store (a number in the
 * file twice is stored once), invalid and repeated rows are reported with their line (the first
 * 500 of them, and their count).
 */
export const prepareImport = (buffer: Buffer, mapping: TContactImportMapping, country: string): PreparedImport => {
  const [header = [], ...rows] = readCsv(buffer);
  const at = mappedColumns(header, mapping);
  const rejected: TContactImportReport['rejected'] = [];
  const seen = new Map<string, number>();
  const contacts: ContactRow[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const raw = row[at.phone] ?? '';
    const phone = toE164(raw, country);
    if (!phone) {
      rejected.push({ line, value: raw.slice(0, 60), code: 'MESSAGE_INVALID_NUMBER', message: INVALID_NUMBER_MESSAGE });
      return;
    }
    const zone = at.timeZone >= 0 ? (row[at.timeZone] ?? '') : '';
    if (zone && !isTimeZone(zone)) {
      rejected.push({
        line,
        value: zone.slice(0, 60),
        code: 'INVALID_TIME_ZONE',
        message: 'Not a time zone: use an IANA name such as Europe/Berlin or America/New_York',
      });
      return;
    }
    const first = seen.get(phone);
    if (first !== undefined) {
      rejected.push({ line, value: raw.slice(0, 60), code: 'DUPLICATE', message: `Same number as line ${first}` });
      return;
    }
    seen.set(phone, line);
    const tags = [...(at.tags >= 0 ? (row[at.tags] ?? '').split(/[,;|]/) : []), ...(mapping.addTags ?? [])]
      .map((tag) => tag.trim())
      .filter((tag) => ZContactTag.safeParse(tag).success);
    contacts.push({
      phone,
      name: at.name >= 0 ? (row[at.name] ?? '').slice(0, 120) || null : null,
      tags: arrayLiteral([...new Set(tags)].slice(0, 20)),
      timeZone: zone || null,
      attributes: JSON.stringify(
        Object.fromEntries(at.attributes.map(([key, index]) => [key, (row[index] ?? '').slice(0, 500)])),
      ),
    });
  });
  return { slices: sliced(contacts), rejected: rejected.slice(0, 500), rejectedCount: rejected.length };
};
