import type { TInboxThread } from '@switchboard/core';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profileOfThread } from '../conversations/repo';
import { senderProfiles, threads } from '../conversations/schema';

const profile = { username: senderProfiles.username, name: senderProfiles.name };

type ThreadRow = typeof threads.$inferSelect;

type ProfileRow = { username: string | null; name: string | null } | null;

const toThread = (row: ThreadRow, profile: ProfileRow = null): TInboxThread => ({
  threadId: row.id,
  contactIdentifier: row.contactIdentifier,
  contactUsername: profile?.username ?? null,
  contactName: profile?.name ?? null,
  lastMessage: row.lastMessage,
  lastMessageAt: row.lastMessageAt.toISOString(),
  messageCount: row.messageCount,
  handledByUserId: row.handledByUserId,
  createdAt: row.createdAt.toISOString(),
});

/** One page of a widget's threads, most recent activity first. */
export const listWidgetThreads = async (
  db: Db,
  subaccountId: string,
  widgetId: string,
  page: number,
  limit: number,
) => {
  const rows = await db
    .select({ thread: threads, profile })
    .from(threads)
    .leftJoin(senderProfiles, profileOfThread)
    .where(and(eq(threads.subaccountId, subaccountId), eq(threads.channelRef, widgetId)))
    .orderBy(desc(threads.lastMessageAt))
    .limit(limit + 1)
    .offset((page - 1) * limit);
  return {
    threads: rows.slice(0, limit).map((row) => toThread(row.thread, row.profile)),
    hasMore: rows.length > limit,
  };
};

export const findWidgetThread = async (db: Db, subaccountId: string, widgetId: string, threadId: string) => {
  const rows = await db
    .select({ thread: threads, profile })
    .from(threads)
    .leftJoin(senderProfiles, profileOfThread)
    .where(and(eq(threads.id, threadId), eq(threads.subaccountId, subaccountId), eq(threads.channelRef, widgetId)))
    .limit(1);
  return rows[0] ? toThread(rows[0].thread, rows[0].profile) : null;
};

/** The widget a thread belongs to (its channel ref), for filtering live events. */
export const channelRefOf = async (db: Db, threadId: string): Promise<string | null> => {
  const rows = await db.select({ ref: threads.channelRef }).from(threads).where(eq(threads.id, threadId)).limit(1);
  return rows[0]?.ref ?? null;
};
