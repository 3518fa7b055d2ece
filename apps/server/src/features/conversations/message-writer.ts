import { type SQL, sql } from 'drizzle-orm';
import {
  type BulkColumn,
  FixedStatement,
  insertParams,
  insertRows,
  insertValues,
  unnestRows,
  valuesParams,
  valuesRows,
} from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import type { OutboxRow } from '../../platform/domain-events';
import { GroupCommit } from '../../platform/group-commit';
import { wakeWorkersFor } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { rememberWritten } from './history';
import { messages, threads } from './schema';

/**
 * Chat messages are stored by group commit: messages stored at the same moment (many conversations
 * at once) are written together, and every batch is a single statement: new threads (with the
 * summary of their messages), the messages, and the summary of the other threads they belong to,
 * as parts of one WITH statement, which PostgreSQL applies all or nothing without a transaction
 * block (one round trip instead of five). Each part passes one array per column (unnest), so the
 * statement's text and cost of preparing stay the same for any number of rows; a batch of one turn
 * (one thread, one or two messages), the most common at a chat's pace, passes one parameter per
 * value instead. Every caller still waits until its own row is committed. A message whose
 * `message.stored` event has reactions after its commit (webhook events) carries their outbox rows,
 * written by the same statement, so the message and what follows it commit together.
 */

type NewThread = Pick<
  typeof threads.$inferSelect,
  'id' | 'subaccountId' | 'agentId' | 'channel' | 'channelRef' | 'contactIdentifier'
>;
type NewMessage = typeof messages.$inferSelect & {
  /** The thread to create first, for the first message of a new conversation. */
  newThread?: NewThread;
  /** The outbox rows of its `message.stored` event (platform/domain-events.ts). */
  outbox?: OutboxRow[];
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

const outboxColumns: Record<string, BulkColumn<OutboxRow>> = {
  id: ['text', (job) => job.id],
  type: ['text', (job) => job.type],
  queue: ['text', (job) => job.queue],
  priority: ['int', (job) => job.priority ?? 0],
  payload: ['jsonb', (job) => JSON.stringify(job.payload)],
  account_id: ['text', (job) => job.accountId ?? null],
  subaccount_id: ['text', (job) => job.subaccountId ?? null],
  run_at: ['timestamptz', (job) => job.runAt.toISOString()],
  max_attempts: ['int', (job) => job.maxAttempts ?? 1],
  idempotency_key: ['text', (job) => job.idempotencyKey ?? null],
};

/** A thread's list preview: the start of its last message. */
const summaryText = (summary: Summary) => summary.last.content.slice(0, 500);

/** A thread's summary moved on by the messages of a batch: its last message and how many there were. */
type KnownThread = [id: string, summary: Summary];

const summaryColumns: Record<string, BulkColumn<KnownThread>> = {
  id: ['text', ([id]) => id],
  last_message: ['text', ([, summary]) => summaryText(summary)],
  at: ['timestamptz', ([, summary]) => summary.last.createdAt.toISOString()],
  n: ['int', ([, summary]) => summary.count],
};

/** Moves on the summary of the threads in `source` (rows of summaryColumns). */
const updateSummaries = (source: SQL) => sql`
    UPDATE ${threads} SET
      last_message = CASE WHEN v.at >= ${threads}.last_message_at THEN v.last_message ELSE ${threads}.last_message END,
      last_message_at = greatest(${threads}.last_message_at, v.at),
      message_count = ${threads}.message_count + v.n
    FROM ${source} AS v(id, last_message, at, n)
    WHERE ${threads}.id = v.id`;

/** Any batch: new threads, the messages, and the summary of the other threads, all as arrays. */
const batchStatement = new FixedStatement(
  () => sql`
    WITH new_threads AS (${insertRows(threads, threadColumns, [])}),
      new_messages AS (${insertRows(messages, messageColumns, [])})
    ${updateSummaries(unnestRows(summaryColumns, []))}`,
  (newThreads: { thread: NewThread; summary: Summary }[], rows: NewMessage[], known: KnownThread[]) => [
    ...insertParams(threadColumns, newThreads),
    ...insertParams(messageColumns, rows),
    ...insertParams(summaryColumns, known),
  ],
);

/** A batch with outbox rows: the array form with the jobs as one more part. */
const outboxBatchStatement = new FixedStatement(
  () => sql`
    WITH new_threads AS (${insertRows(threads, threadColumns, [])}),
      new_messages AS (${insertRows(messages, messageColumns, [])}),
      new_jobs AS (${insertRows(jobs, outboxColumns, [])})
    ${updateSummaries(unnestRows(summaryColumns, []))}`,
  (
    newThreads: { thread: NewThread; summary: Summary }[],
    rows: NewMessage[],
    outbox: OutboxRow[],
    known: KnownThread[],
  ) => [
    ...insertParams(threadColumns, newThreads),
    ...insertParams(messageColumns, rows),
    ...insertParams(outboxColumns, outbox),
    ...insertParams(summaryColumns, known),
  ],
);

/**
 * The batch a chat's pace writes most: one turn of one conversation, its one or two messages with
 * the summary of their thread, or with the thread itself on the conversation's first turn. One
 * parameter per value, which PostgreSQL binds faster than it parses and unnests arrays.
 */
const TURN_ROWS = 2;
const turnStatements = new Map<string, FixedStatement<[NewMessage[], KnownThread, NewThread | null]>>();

const turnStatement = (count: number, isNew: boolean) => {
  const key = `${count}:${isNew}`;
  let statement = turnStatements.get(key);
  if (!statement) {
    statement = isNew
      ? new FixedStatement(
          () => sql`
            WITH new_threads AS (${insertValues(threads, threadColumns, 1)})
            ${insertValues(messages, messageColumns, count)}`,
          (rows: NewMessage[], [, summary]: KnownThread, thread: NewThread | null) => [
            ...valuesParams(threadColumns, [{ thread: thread as NewThread, summary }]),
            ...valuesParams(messageColumns, rows),
          ],
        )
      : new FixedStatement(
          () => sql`
            WITH new_messages AS (${insertValues(messages, messageColumns, count)})
            ${updateSummaries(sql`(${valuesRows(summaryColumns, 1)})`)}`,
          (rows: NewMessage[], summary: KnownThread) => [
            ...valuesParams(messageColumns, rows),
            ...valuesParams(summaryColumns, [summary]),
          ],
        );
    turnStatements.set(key, statement);
  }
  return statement;
};

const writeBatch = async (db: Db, rows: NewMessage[]) => {
  const summaries = new Map<string, Summary>();
  for (const row of rows) {
    summaries.set(row.threadId, { last: row, count: (summaries.get(row.threadId)?.count ?? 0) + 1 });
  }
  const outbox = rows.flatMap((row) => row.outbox ?? []);
  const [only] = summaries;
  if (summaries.size === 1 && only && rows.length <= TURN_ROWS && !outbox.length) {
    const thread = rows.find((row) => row.newThread)?.newThread ?? null;
    await turnStatement(rows.length, thread !== null).run(db, rows, only, thread);
    return;
  }
  const created = new Set<string>();
  const newThreads = rows.flatMap((row) => {
    if (!row.newThread || created.has(row.newThread.id)) return [];
    created.add(row.newThread.id);
    return [{ thread: row.newThread, summary: summaries.get(row.threadId) as Summary }];
  });
  // A thread created by this statement is not visible to its UPDATE part: its summary is inserted.
  const known = [...summaries.entries()].filter(([id]) => !created.has(id));
  if (!outbox.length) {
    await batchStatement.run(db, newThreads, rows, known);
    return;
  }
  await outboxBatchStatement.run(db, newThreads, rows, outbox, known);
  wakeWorkersFor(outbox, false);
};

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
