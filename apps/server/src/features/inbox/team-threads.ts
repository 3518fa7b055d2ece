import {
  INBOX_CHANNELS,
  type TContactProfile,
  type TContactProfileUpdate,
  type TInboxChannel,
  type TTeamInboxQuery,
  type TTeamInboxThread,
} from '@switchboard/core';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { publishInboxChange } from './events';
import { contactProfiles } from './schema';
import { inboxThreadOf } from './threads-owned';

type Row = {
  id: string;
  channel: TInboxChannel;
  connection_id: string | null;
  connection_name: string | null;
  contact_identifier: string | null;
  contact_name: string | null;
  last_message: string;
  last_message_at: Date | string;
  message_count: number;
  handled_by_user_id: string | null;
  assigned_user_id: string | null;
  label_ids: string[] | null;
};

const toThread = (row: Row): TTeamInboxThread => ({
  threadId: row.id,
  channel: row.channel,
  connectionId: row.connection_id,
  connectionName: row.connection_name,
  contactIdentifier: row.contact_identifier,
  contactName: row.contact_name,
  lastMessage: row.last_message,
  lastMessageAt: new Date(row.last_message_at).toISOString(),
  messageCount: row.message_count,
  handledByUserId: row.handled_by_user_id,
  assignedUserId: row.assigned_user_id,
  labelIds: row.label_ids ?? [],
});

const channelList = sql.join(
  INBOX_CHANNELS.map((channel) => sql`${channel}`),
  sql`, `,
);

/** Threads of the sub-account's channels with their connection, contact name and labels, newest activity first. */
const selectThreads = async (deps: Deps, subaccountId: string, filters: SQL[], limit: number, offset: number) =>
  rowsOf<Row>(
    await deps.db.execute(sql`
      SELECT t.id, t.channel, c.id AS connection_id, c.name AS connection_name, t.contact_identifier,
        coalesce(nullif(p.name, ''), ct.name) AS contact_name, t.last_message, t.last_message_at, t.message_count,
        t.handled_by_user_id, t.assigned_user_id,
        ARRAY(SELECT tl.label_id FROM thread_labels tl WHERE tl.thread_id = t.id ORDER BY tl.label_id) AS label_ids
      FROM threads t
      LEFT JOIN LATERAL (
        SELECT id, name FROM connections
        WHERE subaccount_id = t.subaccount_id AND (id = t.channel_ref OR widget_id = t.channel_ref) LIMIT 1
      ) c ON true
      LEFT JOIN contact_profiles p ON p.subaccount_id = t.subaccount_id AND p.contact_identifier = t.contact_identifier
      LEFT JOIN contacts ct ON ct.subaccount_id = t.subaccount_id AND ct.phone = t.contact_identifier
      WHERE t.subaccount_id = ${subaccountId} AND t.channel IN (${channelList})
        ${filters.length ? sql`AND ${sql.join(filters, sql` AND `)}` : sql``}
      ORDER BY t.last_message_at DESC, t.id
      LIMIT ${limit} OFFSET ${offset}`),
  );

/** One page of the sub-account's conversations on every channel; channel, label and assignee filters combine. */
export const listTeamThreads = async (deps: Deps, subaccountId: string, userId: string, query: TTeamInboxQuery) => {
  const filters: SQL[] = [];
  if (query.channel) filters.push(sql`t.channel = ${query.channel}`);
  if (query.label)
    filters.push(sql`EXISTS (SELECT 1 FROM thread_labels l WHERE l.thread_id = t.id AND l.label_id = ${query.label})`);
  if (query.assignee === 'none') filters.push(sql`t.assigned_user_id IS NULL`);
  else if (query.assignee) filters.push(sql`t.assigned_user_id = ${query.assignee === 'me' ? userId : query.assignee}`);
  const rows = await selectThreads(deps, subaccountId, filters, query.limit + 1, (query.page - 1) * query.limit);
  return {
    threads: rows.slice(0, query.limit).map(toThread),
    hasMore: rows.length > query.limit,
    page: query.page,
    limit: query.limit,
  };
};

const kindOf = (channel: TInboxChannel): TContactProfile['kind'] =>
  channel === 'sms' || channel === 'whatsapp' ? 'phone' : channel === 'instagram' ? 'username' : 'visitor';

/** Most threads a profile lists (a contact's every conversation, newest first). */
const PROFILE_THREADS = 100;

/** The contact behind a thread: name, identifier, the team's notes and every thread they had on every channel. */
export const contactProfile = async (deps: Deps, subaccountId: string, threadId: string): Promise<TContactProfile> => {
  const thread = await inboxThreadOf(deps.db, subaccountId, threadId);
  const identifier = thread.contactIdentifier;
  const rows = await selectThreads(
    deps,
    subaccountId,
    [identifier ? sql`t.contact_identifier = ${identifier}` : sql`t.id = ${thread.id}`],
    PROFILE_THREADS,
    0,
  );
  const notes = identifier
    ? rowsOf<{ notes: string }>(
        await deps.db.execute(
          sql`SELECT notes FROM contact_profiles WHERE subaccount_id = ${subaccountId} AND contact_identifier = ${identifier}`,
        ),
      )[0]?.notes
    : undefined;
  const own = rows.find((row) => row.id === thread.id);
  return {
    contactIdentifier: identifier,
    kind: kindOf(thread.channel),
    name: own?.contact_name ?? null,
    notes: notes ?? '',
    threads: rows.map(toThread),
  };
};

/** Saves the name and notes of a thread's contact (shared by all their threads). */
export const updateContactProfile = async (
  deps: Deps,
  subaccountId: string,
  threadId: string,
  input: TContactProfileUpdate,
) => {
  const thread = await inboxThreadOf(deps.db, subaccountId, threadId);
  const identifier = thread.contactIdentifier;
  if (!identifier)
    throw new AppError('VALIDATION_ERROR', 'This visitor left nothing to know them by, so no profile can be kept.', {
      field: 'name',
    });
  const set = {
    ...(input.name !== undefined ? { name: input.name || null } : {}),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
    updatedAt: new Date(),
  };
  await deps.db
    .insert(contactProfiles)
    .values({ subaccountId, contactIdentifier: identifier, name: input.name || null, notes: input.notes ?? '' })
    .onConflictDoUpdate({ target: [contactProfiles.subaccountId, contactProfiles.contactIdentifier], set });
  await publishInboxChange(deps, subaccountId, { kind: 'contact', threadId: thread.id });
  return contactProfile(deps, subaccountId, threadId);
};
