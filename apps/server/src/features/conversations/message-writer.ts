import { sql } from 'drizzle-orm';
import { arrayParam, type BulkColumn, FixedStatement, insertParams, insertRows } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { GroupCommit } from '../../platform/group-commit';
import { rememberWritten } from './history';
import { messages, threads } from './schema';

/**
 * Chat messages are stored by group commit: messages stored at the same moment (many conversations
 * at once) are written together, and every batch is a single statement: new threads (with the
 * summary of their messages), the messages, and the summary of the other threads they belong to,
 * as parts of one WITH statement, which PostgreSQL applies all or nothing without a transaction
 * block (one round trip instead of five). Each part passes one array per column (unnest), so the
 * statement's text and cost of preparing stay the same for any number of rows. Every caller still
 * waits until its own row is committed.
 */

type NewThread = Pick<
  typeof threads.$inferSelect,
  'id' | 'subaccountId' | 'agentId' | 'channel' | 'channelRef' | 'contactIdentifier'
>;
type NewMessage = typeof messages.$inferSelect & {
  /** The thread to create first, for the first message of a new conversation. */
  newThread?: NewThread;
};
type Summary = { last: NewMessage; count: number };

const threadColumns: Record<string, BulkColumn<{ thread: NewThread; summary: Summary }>> = {
  id: ['text', ({ thread }) => thread.id],
  subaccount_id: ['text', ({ thread }) => thread.subaccountId],
  agent_id: ['text', ({ thread }) => thread.agentId],
  channel: ['text', ({ thread }) => thread.channel],
  channel_ref: ['text', ({ thread }) => thread.channelRef],
  contact_identifier: ['text', ({ thread }) => thread.contactIdentifier],
  last_message: ['text', ({ summary }) => summaryText(summary)],
  last_message_at: ['timestamptz', ({ summary }) => summary.last.createdAt.toISOString()],
  message_count: ['int', ({ summary }) => summary.count],
};

const messageColumns: Record<string, BulkColumn<NewMessage>> = {
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
};

/** A thread's list preview: the start of its last message. */
const summaryText = (summary: Summary) => summary.last.content.slice(0, 500);

const writeBatch = async (db: Db, rows: NewMessage[]) => {
  const summaries = new Map<string, Summary>();
  for (const row of rows) {
    summaries.set(row.threadId, { last: row, count: (summaries.get(row.threadId)?.count ?? 0) + 1 });
  }
  const created = new Set<string>();
  const newThreads = rows.flatMap((row) => {
    if (!row.newThread || created.has(row.newThread.id)) return [];
    created.add(row.newThread.id);
    return [{ thread: row.newThread, summary: summaries.get(row.threadId) as Summary }];
  });
  // A thread created by this statement is not visible to its UPDATE part: its summary is inserted.
  const known = [...summaries.entries()].filter(([id]) => !created.has(id));
  await messageStatement.run(db, newThreads, rows, known);
};

type KnownThread = [id: string, summary: Summary];

/** New threads, the messages, and the summary of the other threads: one statement, text fixed. */
const messageStatement = new FixedStatement(
  () => sql`
    WITH new_threads AS (${insertRows(threads, threadColumns, [])}),
      new_messages AS (${insertRows(messages, messageColumns, [])})
    UPDATE ${threads} SET
      last_message = CASE WHEN v.at >= ${threads}.last_message_at THEN v.last_message ELSE ${threads}.last_message END,
      last_message_at = greatest(${threads}.last_message_at, v.at),
      message_count = ${threads}.message_count + v.n
    FROM unnest(
      ${arrayParam([], () => null)}::text[],
      ${arrayParam([], () => null)}::text[],
      ${arrayParam([], () => null)}::timestamptz[],
      ${arrayParam([], () => null)}::int[]) AS v(id, last_message, at, n)
    WHERE ${threads}.id = v.id`,
  (newThreads: { thread: NewThread; summary: Summary }[], rows: NewMessage[], known: KnownThread[]) => [
    ...insertParams(threadColumns, newThreads),
    ...insertParams(messageColumns, rows),
    known.map(([id]) => id),
    known.map(([, summary]) => summaryText(summary)),
    known.map(([, summary]) => summary.last.createdAt.toISOString()),
    known.map(([, summary]) => summary.count),
  ],
);

const writers = new WeakMap<Db, GroupCommit<NewMessage>>();

/**
 * Resolves once the message row is committed (with its thread's summary). On PostgreSQL two
 * batches may be in flight (a pool of connections; thread summaries keep the latest message
 * whatever commits first); PGlite runs one statement at a time, so there one batch at a time
 * leaves room for the other statements (a visitor's chat during a campaign), and, as the only
 * writer, it keeps the history of conversations in progress (history.ts).
 */
export const writeMessage = (db: Db, row: NewMessage, options: { pooled: boolean }): Promise<void> => {
  let writer = writers.get(db);
  if (!writer) {
    writer = new GroupCommit(
      options.pooled
        ? (rows) => writeBatch(db, rows)
        : async (rows) => {
            await writeBatch(db, rows);
            rememberWritten(db, rows);
          },
      { concurrency: options.pooled ? 2 : 1 },
    );
    writers.set(db, writer);
  }
  return writer.add(row);
};
