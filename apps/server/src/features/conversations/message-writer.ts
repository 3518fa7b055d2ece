import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages, threads } from './schema';

/**
 * Group commit for chat messages: messages stored at the same moment (many conversations at once)
 * are written in one transaction, one multi-row insert and one thread update, instead of a
 * transaction each. Every caller still waits until its own row is committed. When a batch fails,
 * its rows are retried one by one so one bad row fails only its own caller.
 */

type NewMessage = typeof messages.$inferInsert & { id: string; createdAt: Date; threadId: string; content: string };
type Pending = { row: NewMessage; resolve: () => void; reject: (error: unknown) => void };
type State = { queue: Pending[]; running: boolean };

const states = new WeakMap<Db, State>();

const writeBatch = async (db: Db, rows: NewMessage[]) => {
  await db.transaction(async (tx) => {
    await tx.insert(messages).values(rows);
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

const drain = async (db: Db, state: State) => {
  state.running = true;
  try {
    while (state.queue.length) {
      const batch = state.queue;
      state.queue = [];
      try {
        await writeBatch(
          db,
          batch.map((item) => item.row),
        );
        for (const item of batch) item.resolve();
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error);
          continue;
        }
        for (const item of batch) {
          try {
            await writeBatch(db, [item.row]);
            item.resolve();
          } catch (single) {
            item.reject(single);
          }
        }
      }
    }
  } finally {
    state.running = false;
  }
};

/** Resolves once the message row is committed (with its thread's summary). */
export const writeMessage = (db: Db, row: NewMessage): Promise<void> => {
  let state = states.get(db);
  if (!state) {
    state = { queue: [], running: false };
    states.set(db, state);
  }
  const current = state;
  return new Promise<void>((resolve, reject) => {
    current.queue.push({ row, resolve, reject });
    if (!current.running) void drain(db, current);
  });
};
