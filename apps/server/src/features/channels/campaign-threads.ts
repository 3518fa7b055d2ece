import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client';
import { newId } from '../../platform/ids';
import { connections } from '../connections/schema';
import type { HistoryMessage } from '../conversations/history';
import { messages, threads } from '../conversations/schema';
import { channelMessages } from './schema';

/**
 * A campaign message is part of its recipient's conversation: once its send is confirmed it is
 * stored as an outgoing message (role `assistant`, source `campaign`) of the contact's latest
 * thread on the connection, or of a new one. The agent then gets it as its own earlier turn when
 * the contact answers, and the person who takes over reads it in the inbox.
 *
 * Written in the transaction of the recipients' outcome; the message's id is derived from the
 * channel message's and the channel message points at its thread, so a retry or a reconciliation
 * stores nothing twice. A connection without an agent has no conversations: nothing is stored.
 */

type Confirmed = {
  id: string;
  subaccount_id: string;
  connection_id: string;
  contact_phone: string;
  body: string;
  media_urls: string[] | string;
  agent_id: string;
  channel: 'sms' | 'whatsapp' | 'instagram';
};

export type ThreadedCampaignMessage = HistoryMessage & {
  threadId: string;
  subaccountId: string;
  newThread: boolean;
};

/** The chat message id of a campaign's channel message (one per channel message). */
export const threadMessageIdOf = (channelMessageId: string) =>
  `mes_${channelMessageId.slice(channelMessageId.indexOf('_') + 1)}`;

const contentOf = (row: Confirmed) => {
  const media = typeof row.media_urls === 'string' ? (JSON.parse(row.media_urls) as string[]) : row.media_urls;
  return media.length ? `${row.body}\n\n${media.map((url) => `[Attachment](${url})`).join('\n')}` : row.body;
};

/** Stores the confirmed campaign messages among `channelMessageIds` in their recipients' threads. */
export const threadCampaignMessages = async (
  tx: Tx,
  channelMessageIds: string[],
): Promise<ThreadedCampaignMessage[]> => {
  if (!channelMessageIds.length) return [];
  const confirmed = rowsOf<Confirmed>(
    await tx.execute(sql`
      SELECT m.id, m.subaccount_id, m.connection_id, m.contact_phone, m.body, m.media_urls,
        c.build_id AS agent_id, c.type AS channel
      FROM ${channelMessages} m JOIN ${connections} c ON c.id = m.connection_id
      WHERE m.id = ANY(${sql.param(channelMessageIds)}::text[]) AND m.campaign_id IS NOT NULL
        AND m.thread_id IS NULL AND c.build_id IS NOT NULL
      ORDER BY m.id
      FOR UPDATE OF m`),
  );
  if (!confirmed.length) return [];
  const keyOf = (connectionId: string, phone: string) => `${connectionId} ${phone}`;
  // Each contact's latest thread on the connection (a connection belongs to one sub-account), one
  // contact at a time by the (connection, contact, last message) index, whatever the statistics
  // say: a plan that read all of the connection's threads for each batch grew with every campaign
  // message stored (6.6 ms a batch of 20 after 10,000).
  const existing = rowsOf<{ id: string; channel_ref: string; contact_identifier: string }>(
    await tx.execute(sql`
      SELECT t.id, p.channel_ref, p.contact_identifier
      FROM unnest(
        ${sql.param(confirmed.map((row) => row.connection_id))}::text[],
        ${sql.param(confirmed.map((row) => row.contact_phone))}::text[]
      ) AS p(channel_ref, contact_identifier)
      CROSS JOIN LATERAL (
        SELECT id FROM ${threads}
        WHERE channel_ref = p.channel_ref AND contact_identifier = p.contact_identifier
        ORDER BY last_message_at DESC LIMIT 1
      ) AS t`),
  );
  const threadOf = new Map(existing.map((row) => [keyOf(row.channel_ref, row.contact_identifier), row.id]));
  const now = new Date();
  const created = new Map<string, typeof threads.$inferInsert>();
  const written: ThreadedCampaignMessage[] = [];
  confirmed.forEach((row, index) => {
    const key = keyOf(row.connection_id, row.contact_phone);
    let threadId = threadOf.get(key);
    const isNew = !threadId;
    if (!threadId) {
      threadId = newId('thread');
      threadOf.set(key, threadId);
    }
    const content = contentOf(row);
    // One millisecond apart, so messages stored together keep an order.
    const createdAt = new Date(now.getTime() + index);
    if (isNew || created.has(threadId)) {
      const thread = created.get(threadId);
      created.set(threadId, {
        id: threadId,
        subaccountId: row.subaccount_id,
        agentId: row.agent_id,
        channel: row.channel,
        channelRef: row.connection_id,
        contactIdentifier: row.contact_phone,
        lastMessage: content.slice(0, 500),
        lastMessageAt: createdAt,
        messageCount: (thread?.messageCount ?? 0) + 1,
        createdAt: thread?.createdAt ?? createdAt,
      });
    }
    written.push({
      id: threadMessageIdOf(row.id),
      role: 'assistant',
      content,
      createdAt,
      threadId,
      subaccountId: row.subaccount_id,
      newThread: isNew,
    });
  });
  if (created.size) await tx.insert(threads).values([...created.values()]);
  const inserted = await tx
    .insert(messages)
    .values(
      written.map((message) => ({
        id: message.id,
        threadId: message.threadId,
        subaccountId: message.subaccountId,
        role: 'assistant' as const,
        content: message.content,
        source: 'campaign' as const,
        createdAt: message.createdAt,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: messages.id });
  const stored = new Set(inserted.map((row) => row.id));
  const known = written.filter((message) => stored.has(message.id) && !created.has(message.threadId));
  if (known.length)
    await tx.execute(sql`
      UPDATE ${threads} SET
        last_message = CASE WHEN v.at >= ${threads}.last_message_at THEN v.last_message ELSE ${threads}.last_message END,
        last_message_at = greatest(${threads}.last_message_at, v.at),
        message_count = ${threads}.message_count + 1
      FROM unnest(
        ${sql.param(known.map((message) => message.threadId))}::text[],
        ${sql.param(known.map((message) => message.content.slice(0, 500)))}::text[],
        ${sql.param(known.map((message) => message.createdAt.toISOString()))}::timestamptz[]
      ) AS v(id, last_message, at)
      WHERE ${threads}.id = v.id`);
  await tx.execute(sql`
    UPDATE ${channelMessages} AS m SET thread_id = v.thread_id
    FROM unnest(
      ${sql.param(confirmed.map((row) => row.id))}::text[],
      ${sql.param(confirmed.map((row) => threadOf.get(keyOf(row.connection_id, row.contact_phone)) as string))}::text[]
    ) AS v(id, thread_id)
    WHERE m.id = v.id`);
  return written.filter((message) => stored.has(message.id));
};
