import {
  CONTACT_IMPORT_MAX_BYTES,
  CONTACT_IMPORT_MAX_ROWS,
  INVALID_NUMBER_MESSAGE,
  isTimeZone,
  type TContact,
  type TContactImportMapping,
  type TContactImportPreview,
  type TContactImportReport,
  type TCreateContactRequest,
  type TMessagingSettings,
  type TUpdateContactRequest,
  ZContactTag,
} from '@switchboard/core';
import { and, arrayContains, count, eq, ilike, or, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Channel } from './connections';
import { requireE164, toE164 } from './phone';
import { contacts, messagingProfiles } from './schema';
import { optOutTimes, suppressEverywhere } from './suppressions';

type ContactRow = typeof contacts.$inferSelect;

/** A contact with its opt-out, which lives on the suppression list (it outlives the contact row). */
export const toContact = (row: ContactRow, optedOutAt: Date | null = null): TContact => ({
  contactId: row.id,
  phone: row.phone,
  name: row.name,
  tags: row.tags,
  optedOut: optedOutAt !== null,
  optedOutAt: optedOutAt?.toISOString() ?? null,
  timeZone: row.timeZone,
  attributes: row.attributes,
  createdAt: row.createdAt.toISOString(),
});

export const messagingSettings = async (db: Db | Tx, subaccountId: string): Promise<TMessagingSettings> => {
  const [row] = await db.select().from(messagingProfiles).where(eq(messagingProfiles.subaccountId, subaccountId));
  return {
    timeZone: row?.timeZone ?? 'UTC',
    defaultCountry: row?.defaultCountry ?? 'US',
    quietHours: row?.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
  };
};

export const patchMessagingSettings = async (
  db: Db,
  subaccountId: string,
  input: { timeZone?: string; defaultCountry?: string; quietHours?: { start: string; end: string } | null },
) => {
  if (input.timeZone && !isTimeZone(input.timeZone))
    throw new AppError('VALIDATION_ERROR', 'Pick a time zone such as Europe/Berlin', { field: 'timeZone' });
  const current = await messagingSettings(db, subaccountId);
  const next = {
    timeZone: input.timeZone ?? current.timeZone,
    defaultCountry: input.defaultCountry ?? current.defaultCountry,
    quietStart:
      input.quietHours === undefined ? (current.quietHours?.start ?? null) : (input.quietHours?.start ?? null),
    quietEnd: input.quietHours === undefined ? (current.quietHours?.end ?? null) : (input.quietHours?.end ?? null),
  };
  await db
    .insert(messagingProfiles)
    .values({ subaccountId, ...next })
    .onConflictDoUpdate({ target: messagingProfiles.subaccountId, set: next });
  return messagingSettings(db, subaccountId);
};

/**
 * Contacts with their opt-out state: of the channel's sender when the list is asked for on a
 * connection, else of any sender of the sub-account.
 */
export const listContacts = async (
  db: Db,
  subaccountId: string,
  query: { page: number; limit: number; search?: string; tag?: string },
  channel: Channel | null = null,
) => {
  const conditions = [eq(contacts.subaccountId, subaccountId)];
  if (query.tag) conditions.push(arrayContains(contacts.tags, [query.tag]));
  if (query.search) {
    const pattern = `%${query.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    const either = or(ilike(contacts.phone, pattern), ilike(contacts.name, pattern));
    if (either) conditions.push(either);
  }
  const where = and(...conditions);
  const [rows, [total], tagRows] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(sql`${contacts.createdAt} desc, ${contacts.id}`)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(contacts).where(where),
    db.execute(
      sql`SELECT DISTINCT unnest(tags) AS tag FROM ${contacts} WHERE subaccount_id = ${subaccountId} ORDER BY 1 LIMIT 200`,
    ),
  ]);
  const optOuts = await optOutTimes(
    db,
    subaccountId,
    rows.map((row) => row.phone),
    channel,
  );
  return {
    contacts: rows.map((row) => toContact(row, optOuts.get(row.phone) ?? null)),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
    tags: (tagRows as unknown as { rows: { tag: string }[] }).rows.map((row) => row.tag),
  };
};

const withOptOut = async (db: Db, row: ContactRow, channel: Channel | null) =>
  toContact(row, (await optOutTimes(db, row.subaccountId, [row.phone], channel)).get(row.phone) ?? null);

/** A new contact; a number that opted out before (then was deleted) is still opted out. */
export const createContact = async (
  db: Db,
  subaccountId: string,
  input: TCreateContactRequest,
  channel: Channel | null = null,
) => {
  const settings = await messagingSettings(db, subaccountId);
  const phone = requireE164(input.phone, 'phone', settings.defaultCountry);
  if (input.timeZone && !isTimeZone(input.timeZone))
    throw new AppError('VALIDATION_ERROR', 'Pick a time zone such as Europe/Berlin', { field: 'timeZone' });
  const [row] = await db
    .insert(contacts)
    .values({
      id: newId('contact'),
      subaccountId,
      phone,
      name: input.name || null,
      tags: [...new Set(input.tags ?? [])],
      timeZone: input.timeZone ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('CONFLICT', `A contact with the number ${phone} already exists`, { field: 'phone' });
  return withOptOut(db, row, channel);
};

const ownedContact = async (db: Db, subaccountId: string, contactId: string) => {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.subaccountId, subaccountId)));
  if (!row) throw new AppError('CONTACT_NOT_FOUND', 'The contact does not exist or was deleted.');
  return row;
};

export const updateContact = async (
  db: Db,
  subaccountId: string,
  contactId: string,
  input: TUpdateContactRequest,
  channel: Channel | null = null,
) => {
  const current = await ownedContact(db, subaccountId, contactId);
  if (input.timeZone && !isTimeZone(input.timeZone))
    throw new AppError('VALIDATION_ERROR', 'Pick a time zone such as Europe/Berlin', { field: 'timeZone' });
  const [row] = await db
    .update(contacts)
    .set({
      ...(input.name !== undefined ? { name: input.name || null } : {}),
      ...(input.tags ? { tags: [...new Set(input.tags)] } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      updatedAt: new Date(),
    })
    .where(eq(contacts.id, contactId))
    .returning();
  // Marked by hand: no sender of the sub-account messages the number until the person's START.
  if (input.optedOut) await suppressEverywhere(db, subaccountId, current.phone);
  return withOptOut(db, row as ContactRow, channel);
};

/** Deletes the contact; its number's opt-outs stay on the suppression list. */
export const deleteContact = async (db: Db, subaccountId: string, contactId: string) => {
  await ownedContact(db, subaccountId, contactId);
  await db.delete(contacts).where(eq(contacts.id, contactId));
};

/** The contact of a phone number, created on its first message. */
export const contactForPhone = async (db: Db | Tx, subaccountId: string, phone: string): Promise<ContactRow> => {
  const [created] = await db
    .insert(contacts)
    .values({ id: newId('contact'), subaccountId, phone })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.subaccountId, subaccountId), eq(contacts.phone, phone)));
  return row as ContactRow;
};

// --- CSV import -----------------------------------------------------------------------------

/** Reads an uploaded CSV: UTF-8 only (a BOM is dropped), within the size and row limits. */
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
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
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

export const previewImport = (buffer: Buffer): TContactImportPreview => {
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

/**
 * Imports the CSV with the column mapping in one transaction: valid new numbers are added, known
 * numbers get the new name and tags (their opt-out state is kept), invalid and repeated rows are
 * reported with their line.
 */
export const importContacts = async (
  deps: Deps,
  subaccountId: string,
  buffer: Buffer,
  mapping: TContactImportMapping,
): Promise<TContactImportReport> => {
  const [header = [], ...rows] = readCsv(buffer);
  const columns = header.map((name, index) => name || `Column ${index + 1}`);
  const index = (column: string | undefined, field: string) => {
    if (column === undefined) return -1;
    const at = columns.indexOf(column);
    if (at < 0)
      throw new AppError('VALIDATION_ERROR', `The file has no column "${column}"`, { field: `mapping.${field}` });
    return at;
  };
  const phoneAt = index(mapping.phone, 'phone');
  const nameAt = index(mapping.name, 'name');
  const tagsAt = index(mapping.tags, 'tags');
  const zoneAt = index(mapping.timeZone, 'timeZone');
  const attributeAts = (mapping.attributes ?? []).map(
    (column) => [attributeKey(column), index(column, 'attributes')] as const,
  );
  const settings = await messagingSettings(deps.db, subaccountId);
  const country = mapping.defaultCountry ?? settings.defaultCountry;

  const rejected: TContactImportReport['rejected'] = [];
  const seen = new Map<string, number>();
  const good: {
    phone: string;
    name: string | null;
    tags: string[];
    timeZone: string | null;
    attributes: Record<string, string>;
  }[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const raw = row[phoneAt] ?? '';
    const phone = toE164(raw, country);
    if (!phone) {
      rejected.push({ line, value: raw.slice(0, 60), code: 'MESSAGE_INVALID_NUMBER', message: INVALID_NUMBER_MESSAGE });
      return;
    }
    const first = seen.get(phone);
    if (first !== undefined) {
      rejected.push({ line, value: raw.slice(0, 60), code: 'DUPLICATE', message: `Same number as line ${first}` });
      return;
    }
    seen.set(phone, line);
    const tags = [...(tagsAt >= 0 ? (row[tagsAt] ?? '').split(/[,;|]/) : []), ...(mapping.addTags ?? [])]
      .map((tag) => tag.trim())
      .filter((tag) => ZContactTag.safeParse(tag).success);
    const zone = zoneAt >= 0 ? (row[zoneAt] ?? '') : '';
    good.push({
      phone,
      name: nameAt >= 0 ? (row[nameAt] ?? '').slice(0, 120) || null : null,
      tags: [...new Set(tags)].slice(0, 20),
      timeZone: zone && isTimeZone(zone) ? zone : null,
      attributes: Object.fromEntries(attributeAts.map(([key, at]) => [key, (row[at] ?? '').slice(0, 500)])),
    });
  });

  let imported = 0;
  let updated = 0;
  await deps.db.transaction(async (tx) => {
    for (let start = 0; start < good.length; start += 1000) {
      const batch = good.slice(start, start + 1000);
      const result = await tx.execute(sql`
        INSERT INTO ${contacts} (id, subaccount_id, phone, name, tags, time_zone, attributes)
        SELECT t.id, t.subaccount_id, t.phone, t.name, t.tags::text[], t.time_zone, t.attributes FROM unnest(
          ${sql.param(batch.map(() => newId('contact')))}::text[],
          ${sql.param(batch.map(() => subaccountId))}::text[],
          ${sql.param(batch.map((row) => row.phone))}::text[],
          ${sql.param(batch.map((row) => row.name))}::text[],
          ${sql.param(batch.map((row) => `{${row.tags.map((tag) => JSON.stringify(tag)).join(',')}}`))}::text[],
          ${sql.param(batch.map((row) => row.timeZone))}::text[],
          ${sql.param(batch.map((row) => JSON.stringify(row.attributes)))}::jsonb[]
        ) AS t(id, subaccount_id, phone, name, tags, time_zone, attributes)
        ON CONFLICT (subaccount_id, phone) DO UPDATE SET
          name = COALESCE(EXCLUDED.name, ${contacts}.name),
          tags = ARRAY(SELECT DISTINCT unnest(${contacts}.tags || EXCLUDED.tags)),
          time_zone = COALESCE(EXCLUDED.time_zone, ${contacts}.time_zone),
          attributes = ${contacts}.attributes || EXCLUDED.attributes,
          updated_at = now()
        RETURNING (xmax = 0) AS inserted`);
      for (const row of (result as unknown as { rows: { inserted: boolean }[] }).rows) {
        if (row.inserted) imported += 1;
        else updated += 1;
      }
    }
  });
  return { imported, updated, rejected: rejected.slice(0, 500), rejectedCount: rejected.length };
};
