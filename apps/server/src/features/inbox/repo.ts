import type { TInboxThread } from '@switchboard/core';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { threads } from '../conversations/schema';

type ThreadRow = typeof threads.$inferSelect;

const toThread = (row: ThreadRow): TInboxThread => ({
  threadId: row.id,
  contactIdentifier: row.contactIdentifier,
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
    .select()
    .from(threads)
    .where(and(eq(threads.subaccountId, subaccountId), eq(threads.channelRef, widgetId)))
    .orderBy(desc(threads.lastMessageAt))
    .limit(limit + 1)
    .offset((page - 1) * limit);
  return { threads: rows.slice(0, limit).map(toThread), hasMore: rows.length > limit };
};

export const findWidgetThread = async (db: Db, subaccountId: string, widgetId: string, threadId: string) => {
  const rows = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, threadId), eq(threads.subaccountId, subaccountId), eq(threads.channelRef, widgetId)))
    .limit(1);
  return rows[0] ? toThread(rows[0]) : null;
};

/** The widget a thread belongs to (its channel ref), for filtering live events. */
export const channelRefOf = async (db: Db, threadId: string): Promise<string | null> => {
  const rows = await db.select({ ref: threads.channelRef }).from(threads).where(eq(threads.id, threadId)).limit(1);
  return rows[0]?.ref ?? null;
};
