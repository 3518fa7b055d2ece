import type { TWidgetConversation } from '@switchboard/core';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { messages, threads } from '../conversations/schema';
import type { LiveWidget } from './live-config';

/** A visitor's own conversations on a widget, newest first (GET /api/widget/{widgetId}/conversations). */
export const listVisitorConversations = async (
  deps: Deps,
  widget: LiveWidget,
  contactIdentifier: string,
): Promise<TWidgetConversation[]> => {
  const rows = await deps.db
    .select({
      id: threads.id,
      lastMessage: threads.lastMessage,
      lastMessageAt: threads.lastMessageAt,
      messageCount: threads.messageCount,
      handledBy: threads.handledByUserId,
      // A person's replies after the visitor's last message: not seen yet.
      // (Written out: drizzle leaves the outer column unqualified inside a sub-select.)
      unread: sql<number>`(select count(*)::int from messages m where m.thread_id = "threads"."id" and m.role = 'human' and m.created_at > coalesce((select max(u.created_at) from messages u where u.thread_id = "threads"."id" and u.role = 'user'), 'epoch'::timestamptz))`,
    })
    .from(threads)
    .where(
      and(
        eq(threads.subaccountId, widget.subaccountId),
        eq(threads.channelRef, widget.widgetId),
        eq(threads.contactIdentifier, contactIdentifier),
      ),
    )
    .orderBy(desc(threads.lastMessageAt))
    .limit(10);
  return rows.map((row) => ({
    threadId: row.id,
    lastMessage: row.lastMessage,
    lastMessageTime: row.lastMessageAt.toISOString(),
    totalMessages: row.messageCount,
    customerNumber: contactIdentifier,
    unreadCount: Number(row.unread) || 0,
    status: row.handledBy ? 'human' : 'active',
  }));
};

/** The thread, only when it is this visitor's on this widget. */
export const visitorThread = async (deps: Deps, widget: LiveWidget, threadId: string, contactIdentifier: string) => {
  const rows = await deps.db
    .select({ id: threads.id, handledBy: threads.handledByUserId })
    .from(threads)
    .where(
      and(
        eq(threads.id, threadId),
        eq(threads.subaccountId, widget.subaccountId),
        eq(threads.channelRef, widget.widgetId),
        eq(threads.contactIdentifier, contactIdentifier),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) throw new AppError('THREAD_NOT_FOUND', 'Conversation not found');
  return row;
};

/** The visitor's transcript of one thread (to pick up replies a person sent while the widget was closed). */
export const visitorMessages = async (deps: Deps, widget: LiveWidget, threadId: string, contactIdentifier: string) => {
  const thread = await visitorThread(deps, widget, threadId, contactIdentifier);
  const rows = await deps.db
    .select({ id: messages.id, role: messages.role, content: messages.content, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.threadId, thread.id))
    .orderBy(asc(messages.createdAt))
    .limit(500);
  return {
    humanHandled: Boolean(thread.handledBy),
    messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
};
