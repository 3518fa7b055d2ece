import {
  isTimeZone,
  type TContact,
  type TCreateContactRequest,
  type TMessagingSettings,
  type TUpdateContactRequest,
} from '@switchboard/core';
import { and, arrayContains, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Channel } from './connections';
import { requireE164 } from './phone';
import { contacts, messagingProfiles } from './schema';
import { clearSuppression, type SuppressionView, suppressEverywhere, suppressionsOf } from './suppressions';

type ContactRow = typeof contacts.$inferSelect;

/** A contact with its opt-out, which lives on the suppression list (it outlives the contact row). */
export const toContact = (row: ContactRow, suppression: SuppressionView | null = null): TContact => ({
  contactId: row.id,
  phone: row.phone,
  name: row.name,
  tags: row.tags,
  optedOut: suppression !== null,
  optedOutAt: suppression?.at.toISOString() ?? null,
  suppression: suppression
    ? {
        source: suppression.source,
        keyword: suppression.keyword,
        errorCode: suppression.errorCode,
        errorMessage: suppression.errorMessage,
        clearable: suppression.source !== 'keyword',
      }
    : null,
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
  const optOuts = await suppressionsOf(
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
  toContact(row, (await suppressionsOf(db, row.subaccountId, [row.phone], channel)).get(row.phone) ?? null);

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

const STOP_STAYS = 'This number texted STOP: it gets messages again only when it replies START. Nothing was changed.';

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
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(contacts)
      .set({
        ...(input.name !== undefined ? { name: input.name || null } : {}),
        ...(input.tags ? { tags: [...new Set(input.tags)] } : {}),
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone || null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(contacts.id, contactId))
      .returning();
    // Marked by hand: no sender of the sub-account messages the number until cleared or the person's START.
    if (input.optedOut === true) await suppressEverywhere(tx, subaccountId, current.phone);
    if (input.optedOut === false && (await clearSuppression(tx, subaccountId, current.phone)).optOutRemains)
      throw new AppError('CONFLICT', STOP_STAYS, { field: 'optedOut', reason: 'opted_out_by_contact' });
    return updated as ContactRow;
  });
  return withOptOut(db, row, channel);
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
