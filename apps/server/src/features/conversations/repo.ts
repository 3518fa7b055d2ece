import { originOfChannel, type TChannel, type TMessageView, type TOrigin, type TThreadView } from '@switchboard/core';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Deps, embeddedDatabase } from '../../platform/deps';
import { outboxRowsOf } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { TtlCache } from '../../platform/ttl-cache';
import { writeMessage } from './message-writer';
import { type MessageSource, type MessageToolCall, messages, senderProfiles, threads } from './schema';

export type ThreadRow = typeof threads.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

type ProfileRow = { username: string | null; name: string | null } | null;

export const threadView = (row: ThreadRow, profile: ProfileRow = null): TThreadView => ({
  id: row.id,
  agentId: row.agentId,
  channel: row.channel,
  channelRef: row.channelRef,
  contactIdentifier: row.contactIdentifier,
  contactUsername: profile?.username ?? null,
  contactName: profile?.name ?? null,
  handledByUserId: row.handledByUserId,
  lastMessage: row.lastMessage,
  messageCount: row.messageCount,
  lastMessageAt: row.lastMessageAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const messageView = (row: MessageRow): TMessageView => ({
  id: row.id,
  role: row.role,
  content: row.content,
  sources: row.sources,
  toolCalls: row.toolCalls,
  model: row.model,
  offline: row.offline,
  ...(row.source ? { source: row.source } : {}),
  createdAt: row.createdAt.toISOString(),
});

/** The cached profile of a thread's contact on its connection (Instagram), if any. */
export const profileOfThread = and(
  eq(senderProfiles.channelRef, threads.channelRef),
  eq(senderProfiles.contactIdentifier, threads.contactIdentifier),
) as SQL;

/** Channels every stored message is published on. */
export const threadChannel = (threadId: string) => `thread:${threadId}`;
export const conversationsChannel = (subaccountId: string) => `subaccount:${subaccountId}:conversations`;

export const listThreads = async (
  db: Db,
  query: {
    subaccountId: string;
    channel?: TChannel;
    channelRef?: string;
    contactIdentifier?: string;
    agentId?: string;
    page: number;
    limit: number;
  },
) => {
  const filters: SQL[] = [eq(threads.subaccountId, query.subaccountId)];
  if (query.channel) filters.push(eq(threads.channel, query.channel));
  if (query.channelRef) filters.push(eq(threads.channelRef, query.channelRef));
  if (query.contactIdentifier) filters.push(eq(threads.contactIdentifier, query.contactIdentifier));
  if (query.agentId) filters.push(eq(threads.agentId, query.agentId));
  const where = and(...filters);
  const [rows, totals] = await Promise.all([
    db
      .select({ thread: threads, profile: { username: senderProfiles.username, name: senderProfiles.name } })
      .from(threads)
      .leftJoin(senderProfiles, profileOfThread)
      .where(where)
      .orderBy(desc(threads.lastMessageAt), desc(threads.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(threads).where(where),
  ]);
  return {
    items: rows.map((row) => threadView(row.thread, row.profile)),
    total: Number(totals[0]?.total ?? 0),
    page: query.page,
    limit: query.limit,
  };
};

export const findThread = async (db: Db, subaccountId: string, threadId: string): Promise<ThreadRow | null> => {
  const rows = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, threadId), eq(threads.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const getThreadWithMessages = async (db: Db, subaccountId: string, threadId: string) => {
  const thread = await findThread(db, subaccountId, threadId);
  if (!thread) return null;
  const rows = await db
    .select()
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return { thread: threadView(thread), messages: rows.map(messageView) };
};

/** What a new conversation's thread is made of (its id is the message's threadId). */
export interface NewThreadInput {
  subaccountId: string;
  agentId: string;
  channel: TChannel;
  channelRef?: string | null;
  contactIdentifier?: string | null;
}

/** Message times strictly increase within a process, so messages stored together keep their order. */
let lastTime = 0;
export const nextMessageTime = () => {
  const now = Date.now();
  lastTime = now > lastTime ? now : lastTime + 1;
  return new Date(lastTime);
};

/**
 * Stores a message, updates the thread summary and publishes it on the event bus; its
 * `message.stored` event's outbox rows are written with it.
 */
export const storeMessage = async (
  deps: Deps,
  input: {
    subaccountId: string;
    threadId: string;
    role: 'user' | 'assistant' | 'human';
    content: string;
    sources?: MessageSource[];
    toolCalls?: MessageToolCall[];
    model?: string | null;
    offline?: boolean;
    userId?: string | null;
    /** Starts the thread with this message (one write for a new conversation's first message). */
    newThread?: NewThreadInput;
    /** The message id, when the caller needs it before the message is stored. */
    id?: string;
    /** When the message arrived (from nextMessageTime), for a message stored after it came in. */
    createdAt?: Date;
    /** Where the turn comes from: a test's message is stored and shown, never announced outside. */
    origin: TOrigin;
  },
): Promise<MessageRow> => {
  const row: MessageRow = {
    id: input.id ?? newId('message'),
    threadId: input.threadId,
    subaccountId: input.subaccountId,
    role: input.role,
    content: input.content,
    sources: input.sources ?? [],
    toolCalls: input.toolCalls ?? [],
    model: input.model ?? null,
    offline: input.offline ?? false,
    userId: input.userId ?? null,
    source: null,
    createdAt: input.createdAt ?? nextMessageTime(),
  };
  const outbox = await outboxRowsOf(deps, 'message.stored', {
    subaccountId: input.subaccountId,
    threadId: input.threadId,
    origin: input.origin,
    message: { id: row.id, role: row.role, content: row.content, model: row.model },
    newThread: input.newThread,
  }).catch((error: unknown) => {
    // The message is what the visitor waits for: without its webhook events it is still stored.
    deps.log.error({ err: error, threadId: input.threadId }, 'Webhook events not queued');
    return [];
  });
  await writeMessage(
    deps.db,
    {
      ...row,
      outbox,
      ...(input.newThread
        ? {
            newThread: {
              ...input.newThread,
              id: input.threadId,
              channelRef: input.newThread.channelRef ?? null,
              contactIdentifier: input.newThread.contactIdentifier ?? null,
            },
          }
        : {}),
    },
    { pooled: !embeddedDatabase(deps) },
  );
  if (input.newThread) {
    // The next turn of a new conversation finds its thread without a query.
    handlerCache(embeddedDatabase(deps)).set(input.threadId, {
      agentId: input.newThread.agentId,
      handledByUserId: null,
      subaccountId: input.newThread.subaccountId,
    });
  }
  const payload = {
    threadId: input.threadId,
    message: {
      id: row.id,
      role: row.role,
      content: row.content,
      createdAt: row.createdAt.toISOString(),
      sources: row.sources,
      toolCalls: row.toolCalls,
      offline: row.offline,
    },
  };
  await Promise.all([
    deps.bus.publish(threadChannel(input.threadId), payload),
    deps.bus.publish(conversationsChannel(input.subaccountId), payload),
  ]);
  return row;
};

/** A person of the team answers in a thread (stored with role 'human'). */
export const appendHumanMessage = async (
  deps: Deps,
  input: { subaccountId: string; threadId: string; userId: string; content: string },
): Promise<TMessageView> => {
  const thread = await findThread(deps.db, input.subaccountId, input.threadId);
  if (!thread) throw new AppError('THREAD_NOT_FOUND', 'The conversation does not exist or was deleted.');
  const row = await storeMessage(deps, {
    subaccountId: input.subaccountId,
    threadId: input.threadId,
    role: 'human',
    content: input.content,
    userId: input.userId,
    // A person answering in a test's thread (a demo, an evaluation) keeps it a test.
    origin: originOfChannel(thread.channel),
  });
  return messageView(row);
};

/** A person takes the thread over (userId) or hands it back to the agent (null). */
export const setThreadHandler = async (
  db: Db,
  input: { subaccountId: string; threadId: string; userId: string | null },
): Promise<TThreadView> => {
  const rows = await db
    .update(threads)
    .set({ handledByUserId: input.userId })
    .where(and(eq(threads.id, input.threadId), eq(threads.subaccountId, input.subaccountId)))
    .returning();
  const row = rows[0];
  if (!row) throw new AppError('THREAD_NOT_FOUND', 'The conversation does not exist or was deleted.');
  handlerCaches.shared.delete(input.threadId);
  handlerCaches.embedded.delete(input.threadId);
  return threadView(row);
};

type ThreadHandler = { agentId: string; handledByUserId: string | null; subaccountId: string } | null;

/**
 * Who handles a thread, read on every turn. A takeover in this process is seen at once; on
 * PostgreSQL one in another process within 2 s, the time a thread is kept. The embedded database
 * has no other process, so there a thread is kept for the length of a conversation.
 */
const handlerCaches = {
  shared: new TtlCache<ThreadHandler>(2000),
  embedded: new TtlCache<ThreadHandler>(10 * 60_000, 2000),
};
const handlerCache = (embedded: boolean) => (embedded ? handlerCaches.embedded : handlerCaches.shared);

export const findThreadForReply = async (
  db: Db,
  subaccountId: string,
  threadId: string,
  { embedded }: { embedded: boolean },
) => {
  const found = await handlerCache(embedded).getOrLoad(
    threadId,
    async () => {
      const row = await db
        .select({
          agentId: threads.agentId,
          handledByUserId: threads.handledByUserId,
          subaccountId: threads.subaccountId,
        })
        .from(threads)
        .where(eq(threads.id, threadId))
        .limit(1);
      return row[0] ?? null;
    },
    (value) => value !== null,
  );
  return found && found.subaccountId === subaccountId ? { id: threadId, ...found } : null;
};
