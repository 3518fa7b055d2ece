import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { TtlCache } from '../../platform/ttl-cache';
import { messages } from './schema';

/**
 * The recent messages of a thread, the history a reply sends the model.
 *
 * On the embedded database (PGlite) this process is the only writer (its data folder is locked to
 * one process), and every message is written through message-writer.ts, which hands each committed
 * message to `rememberWritten`: so the history of a conversation in progress is kept in memory and
 * a turn reads nothing. A thread not in memory (the first turn after a pause, or after a restart)
 * is read once. On PostgreSQL other processes write to the same threads, so every turn reads it.
 */

export type HistoryMessage = { id: string; role: string; content: string; createdAt: Date };

/** Messages kept per thread: the most a reply sends. */
export const HISTORY_KEPT = 20;
/** Conversations kept, and for how long after their last message (memory stays bounded). */
const THREADS_KEPT = 1000;
const KEPT_MS = 5 * 60_000;

const caches = new WeakMap<Db, TtlCache<HistoryMessage[]>>();

const cacheOf = (db: Db) => {
  let cache = caches.get(db);
  if (!cache) {
    cache = new TtlCache<HistoryMessage[]>(KEPT_MS, THREADS_KEPT);
    caches.set(db, cache);
  }
  return cache;
};

const byTime = (a: HistoryMessage, b: HistoryMessage) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const readRecent = async (db: Db, threadId: string, limit: number): Promise<HistoryMessage[]> => {
  const rows = await db
    .select({ id: messages.id, role: messages.role, content: messages.content, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
};

/** The last `limit` (at most HISTORY_KEPT) messages of a thread, oldest first. */
export const recentMessages = async (
  db: Db,
  threadId: string,
  limit: number,
  { embedded }: { embedded: boolean },
): Promise<HistoryMessage[]> => {
  if (!embedded || limit > HISTORY_KEPT) return readRecent(db, threadId, limit);
  const kept = await cacheOf(db).getOrLoad(threadId, () => readRecent(db, threadId, HISTORY_KEPT));
  return kept.slice(-limit);
};

/**
 * Committed messages (embedded database only): each joins its thread's history when the thread is
 * in memory or new. A thread being read meanwhile is not kept (the read may have missed the message).
 */
export const rememberWritten = (
  db: Db,
  written: (HistoryMessage & { threadId: string; newThread?: unknown })[],
): void => {
  const cache = cacheOf(db);
  for (const message of written) {
    const { id, role, content, createdAt } = message;
    const kept = cache.get(message.threadId);
    if (!kept && !message.newThread) {
      cache.delete(message.threadId);
      continue;
    }
    const history = [...(kept ?? []), { id, role, content, createdAt }];
    const last = history.at(-2);
    if (last && byTime(last, history[history.length - 1] as HistoryMessage) > 0) history.sort(byTime);
    cache.set(message.threadId, history.slice(-HISTORY_KEPT));
  }
};
