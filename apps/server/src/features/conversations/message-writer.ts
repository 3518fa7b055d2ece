import { sql } from 'drizzle-orm';
import { arrayParam, bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { GroupCommit } from '../../platform/group-commit';
import { messages, threads } from './schema';

/**
 * Chat messages are stored by group commit: messages stored at the same moment (many conversations
 * at once) are written in one transaction of at most three statements (new threads, messages,
 * thread summaries), instead of a transaction each. Each statement passes one array per column
 * (unnest), so its text and cost of preparing stay the same for any number of rows. Every caller
 * still waits until its own row is committed.
 */

type NewThread = Pick<
  typeof threads.$inferSelect,
  'id' | 'subaccountId' | 'agentId' | 'channel' | 'channelRef' | 'contactIdentifier'
>;
type NewMessage = typeof messages.$inferSelect & {
  /** The thread to create first, for the first message of a new conversation. */
  newThread?: NewThread;
};

const writeBatch = async (db: Db, rows: NewMessage[]) => {
  const newThreads = rows.flatMap((row) => (row.newThread ? [row.newThread] : []));
  const summaries = new Map<string, { last: NewMessage; count: number }>();
  for (const row of rows) {
    summaries.set(row.threadId, { last: row, count: (summaries.get(row.threadId)?.count ?? 0) + 1 });
  }
  const perThread = [...summaries.entries()];
  await db.transaction(async (tx) => {
    await bulkInsert(
      tx,
      threads,
      {
        id: ['text', (t) => t.id],
        subaccount_id: ['text', (t) => t.subaccountId],
        agent_id: ['text', (t) => t.agentId],
        channel: ['text', (t) => t.channel],
        channel_ref: ['text', (t) => t.channelRef],
        contact_identifier: ['text', (t) => t.contactIdentifier],
      },
      newThreads,
    );
    await bulkInsert(
      tx,
      messages,
      {
        id: ['text', (m) => m.id],
        thread_id: ['text', (m) => m.threadId],
        subaccount_id: ['text', (m) => m.subaccountId],
        role: ['text', (m) => m.role],
        content: ['text', (m) => m.content],
        sources: ['jsonb', (m) => JSON.stringify(m.sources)],
        tool_calls: ['jsonb', (m) => JSON.stringify(m.toolCalls)],
        model: ['text', (m) => m.model],
        offline: ['boolean', (m) => m.offline],
        user_id: ['text', (m) => m.userId],
        created_at: ['timestamptz', (m) => m.createdAt.toISOString()],
      },
      rows,
    );
    await tx.execute(sql`
      UPDATE ${threads} SET
        last_message = v.last_message,
        last_message_at = v.at,
        message_count = ${threads}.message_count + v.n
      FROM unnest(
        ${arrayParam(perThread, ([id]) => id)}::text[],
        ${arrayParam(perThread, ([, { last }]) => last.content.slice(0, 500))}::text[],
        ${arrayParam(perThread, ([, { last }]) => last.createdAt.toISOString())}::timestamptz[],
        ${arrayParam(perThread, ([, { count }]) => count)}::int[]) AS v(id, last_message, at, n)
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
