import { and, eq, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Channel } from './connections';
import { channelSuppressions } from './schema';

/**
 * The suppression list: numbers that opted out of a sender. Opt-outs belong to the number and the
 * sender, not to a contact row, so deleting a contact and adding it again (by hand, the API or an
 * import) never erases one; every send path asks here before anything leaves (campaigns, agent
 * replies, a person's replies from the inbox). Only the person's own START to that sender lifts it.
 */

/** Every sender of the sub-account: opt-outs marked by hand, and those recorded before the list. */
export const EVERY_SENDER = '*';

export const OPTED_OUT_MESSAGE =
  'This number opted out (STOP) of this sender and gets no messages from it until it replies START.';

/**
 * The identity an opt-out belongs to: on Twilio the messaging service, else the sending number
 * (what Twilio itself filters STOP on), per channel since an SMS and a WhatsApp sender are distinct;
 * a sandbox connection is a sender of its own. Deleting a connection and connecting the same number
 * again keeps the number's opt-outs.
 */
export const senderKeyOf = ({ connection, account }: Channel) => {
  if (account.transport === 'twilio') {
    const sender = account.messagingServiceSid ?? account.senderPhone;
    if (sender) return `${connection.type}:${sender}`;
  }
  if (account.transport === 'meta' && account.externalAccountId)
    return `${connection.type}:${account.externalAccountId}`;
  return `${connection.type}:${connection.id}`;
};

const sendersOf = (channel: Channel) => [senderKeyOf(channel), EVERY_SENDER];

/** Carrier keywords and opt-outs apply to phone numbers: Instagram has none. */
const hasOptOuts = (channel: Channel) => channel.connection.type !== 'instagram';

/** Records the person's STOP to this sender (again: nothing changes). */
export const suppress = async (
  db: Db | Tx,
  channel: Channel,
  phone: string,
  origin: { keyword: string | null; source?: 'keyword' | 'manual' },
) => {
  await db
    .insert(channelSuppressions)
    .values({
      subaccountId: channel.connection.subaccountId,
      sender: senderKeyOf(channel),
      phone,
      connectionId: channel.connection.id,
      source: origin.source ?? 'keyword',
      keyword: origin.keyword?.slice(0, 40) ?? null,
    })
    .onConflictDoNothing();
};

/** An opt-out from every sender of the sub-account, marked by hand (lifted by the person's START only). */
export const suppressEverywhere = async (db: Db | Tx, subaccountId: string, phone: string) => {
  await db
    .insert(channelSuppressions)
    .values({ subaccountId, sender: EVERY_SENDER, phone, source: 'manual' })
    .onConflictDoNothing();
};

/** The person's START to this sender lifts their opt-out of it (and one from every sender). */
export const lift = async (db: Db | Tx, channel: Channel, phone: string) => {
  await db
    .delete(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, channel.connection.subaccountId),
        eq(channelSuppressions.phone, phone),
        inArray(channelSuppressions.sender, sendersOf(channel)),
      ),
    );
};

/** The numbers among `phones` that this channel must not message. */
export const suppressedAmong = async (db: Db | Tx, channel: Channel, phones: string[]) => {
  if (!phones.length || !hasOptOuts(channel)) return new Set<string>();
  const rows = await db
    .selectDistinct({ phone: channelSuppressions.phone })
    .from(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, channel.connection.subaccountId),
        inArray(channelSuppressions.sender, sendersOf(channel)),
        inArray(channelSuppressions.phone, phones),
      ),
    );
  return new Set(rows.map((row) => row.phone));
};

export const isSuppressed = async (db: Db | Tx, channel: Channel, phone: string) =>
  (await suppressedAmong(db, channel, [phone])).has(phone);

/** A condition for SQL written by hand: the number in `phone` may not get messages from this channel. */
export const suppressedSql = (channel: Channel, phone: SQL): SQL =>
  hasOptOuts(channel)
    ? sql`EXISTS (SELECT 1 FROM ${channelSuppressions} s WHERE s.subaccount_id = ${channel.connection.subaccountId}
        AND s.phone = ${phone} AND s.sender IN (${senderKeyOf(channel)}, ${EVERY_SENDER}))`
    : sql`false`;

/**
 * When each number opted out, for a list of contacts: of this channel's sender when one is given,
 * else of any sender of the sub-account.
 */
export const optOutTimes = async (db: Db | Tx, subaccountId: string, phones: string[], channel: Channel | null) => {
  if (!phones.length) return new Map<string, Date>();
  const rows = await db
    .select({ phone: channelSuppressions.phone, at: max(channelSuppressions.createdAt) })
    .from(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, subaccountId),
        inArray(channelSuppressions.phone, phones),
        channel ? inArray(channelSuppressions.sender, sendersOf(channel)) : undefined,
      ),
    )
    .groupBy(channelSuppressions.phone);
  return new Map(rows.flatMap((row) => (row.at ? [[row.phone, row.at] as const] : [])));
};
