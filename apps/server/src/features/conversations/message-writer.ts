import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { GroupCommit } from '../../platform/group-commit';
import { messages, threads } from './schema';

/**
 * Chat messages are stored by group commit: messages stored at the same moment (many conversations
 * at once) are written in one transaction, one multi-row insert and one thread update, instead of
 * a transaction each. Every caller still waits until its own row is committed.
 */

type NewThread = typeof threads.$inferInsert;
type NewMessage = typeof messages.$inferInsert & {
  id: string;
  createdAt: Date;
  threadId: string;
  content: string;
  /** The thread to create first, for the first message of a new conversation. */
  newThread?: NewThread;
};

const writeBatch = async (db: Db, rows: NewMessage[]) => {
  await db.transaction(async (tx) => {
    const newThreads = rows.flatMap((row) => (row.newThread ? [row.newThread] : []));
    if (newThreads.length) await tx.insert(threads).values(newThreads);
    await tx.insert(messages).values(rows.map(({ newThread: _, ...row }) => row));
    const perThread = new Map<string, { last: NewMessage; count: number }>();
    for (const row of rows) {
      const entry = perThread.get(row.threadId);
      perThread.set(row.threadId, { last: row, count: (entry?.count ?? 0) + 1 });
    }
    if (perThread.size === 1) {
      const [threadId, { last, count }] = [...perThread.entries()][0] as [string, { last: NewMessage; count: number }];
      await tx
        .update(threads)
        .set({
          lastMessage: last.content.slice(0, 500),
          lastMessageAt: last.createdAt,
          messageCount: sql`${threads.messageCount} + ${count}`,
        })
        .where(eq(threads.id, threadId));
      return;
    }
    const values = sql.join(
      [...perThread.entries()].map(
        ([threadId, { last, count }]) =>
          sql`(${threadId}, ${last.content.slice(0, 500)}, ${last.createdAt.toISOString()}::timestamptz, ${count}::int)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE ${threads} SET
        last_message = v.last_message,
        last_message_at = v.at,
        message_count = ${threads}.message_count + v.n
      FROM (VALUES ${values}) AS v(id, last_message, at, n)
      WHERE ${threads}.id = v.id`);
  });
};

const writers = new WeakMap<Db, GroupCommit<NewMessage>>();

/** Resolves once the message row is committed (with its thread's summary). */
export const writeMessage = (db: Db, row: NewMessage): Promise<void> => {
  let writer = writers.get(db);
  if (!writer) {
    writer = new GroupCommit((rows) => writeBatch(db, rows));
    writers.set(db, writer);
  }
  return writer.add(row);
};
