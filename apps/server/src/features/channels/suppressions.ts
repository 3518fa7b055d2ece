import { PERMANENT_FAILURES } from '@switchboard/core';
import { and, eq, inArray, max, ne, type SQL, sql } from 'drizzle-orm';
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

/** Whether a provider's error code means the number cannot get messages (PERMANENT_FAILURES). */
export const isPermanentFailure = (code: string | null | undefined): code is string =>
  Boolean(code && Object.hasOwn(PERMANENT_FAILURES, code));

/**
 * A send failed with a permanent error for the number: it joins the suppression list (of every
 * sender when the number itself is unusable, else of this sender), so later sends skip it. An
 * entry already there (a STOP) is kept as it is. Cleared by hand from the contacts list.
 */
export const suppressFailed = async (
  db: Db | Tx,
  channel: Channel,
  phone: string,
  failure: { code: string; message: string | null },
) => {
  const known = PERMANENT_FAILURES[failure.code];
  if (!known || !hasOptOuts(channel)) return;
  await db
    .insert(channelSuppressions)
    .values({
      subaccountId: channel.connection.subaccountId,
      sender: known.every ? EVERY_SENDER : senderKeyOf(channel),
      phone,
      connectionId: channel.connection.id,
      source: 'failed',
      errorCode: failure.code,
      errorMessage: (failure.message ?? known.reason).slice(0, 500),
    })
    .onConflictDoNothing();
};

/**
 * Clears a number's suppressions that were set by hand or by failed sends; an opt-out the person
 * sent (STOP) stays, since only their START lifts it. Answers whether such an opt-out remains.
 */
export const clearSuppression = async (db: Db | Tx, subaccountId: string, phone: string) => {
  await db
    .delete(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, subaccountId),
        eq(channelSuppressions.phone, phone),
        ne(channelSuppressions.source, 'keyword'),
      ),
    );
  const [kept] = await db
    .select({ phone: channelSuppressions.phone })
    .from(channelSuppressions)
    .where(and(eq(channelSuppressions.subaccountId, subaccountId), eq(channelSuppressions.phone, phone)))
    .limit(1);
  return { optOutRemains: Boolean(kept) };
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

/**
 * Why a campaign skips a suppressed number: it opted out (STOP, or marked by hand), or a send to it
 * failed for good (SUPPRESSED).
 */
export type SkipForSuppression = 'OPTED_OUT' | 'SUPPRESSED';

/** The numbers among `phones` that this channel must not message, with why. */
export const suppressionsAmong = async (db: Db | Tx, channel: Channel, phones: string[]) => {
  const found = new Map<string, SkipForSuppression>();
  if (!phones.length || !hasOptOuts(channel)) return found;
  const rows = await db
    .select({ phone: channelSuppressions.phone, source: channelSuppressions.source })
    .from(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, channel.connection.subaccountId),
        inArray(channelSuppressions.sender, sendersOf(channel)),
        inArray(channelSuppressions.phone, phones),
      ),
    );
  for (const row of rows)
    if (found.get(row.phone) !== 'OPTED_OUT')
      found.set(row.phone, row.source === 'failed' ? 'SUPPRESSED' : 'OPTED_OUT');
  return found;
};

/** The numbers among `phones` that this channel must not message. */
export const suppressedAmong = async (db: Db | Tx, channel: Channel, phones: string[]) =>
  new Set((await suppressionsAmong(db, channel, phones)).keys());

export const isSuppressed = async (db: Db | Tx, channel: Channel, phone: string) =>
  (await suppressedAmong(db, channel, [phone])).has(phone);

/** A condition for SQL written by hand: the number in `phone` may not get messages from this channel. */
export const suppressedSql = (channel: Channel, phone: SQL): SQL =>
  hasOptOuts(channel)
    ? sql`EXISTS (SELECT 1 FROM ${channelSuppressions} s WHERE s.subaccount_id = ${channel.connection.subaccountId}
        AND s.phone = ${phone} AND s.sender IN (${senderKeyOf(channel)}, ${EVERY_SENDER}))`
    : sql`false`;

/** SQL written by hand: why the number in `phone` is skipped (SkipForSuppression), or NULL. */
export const suppressionSkipSql = (channel: Channel, phone: SQL): SQL =>
  hasOptOuts(channel)
    ? sql`(SELECT CASE WHEN count(*) = 0 THEN NULL WHEN bool_and(s.source = 'failed') THEN 'SUPPRESSED' ELSE 'OPTED_OUT' END
        FROM ${channelSuppressions} s WHERE s.subaccount_id = ${channel.connection.subaccountId}
        AND s.phone = ${phone} AND s.sender IN (${senderKeyOf(channel)}, ${EVERY_SENDER}))`
    : sql`NULL::text`;

/** A number's suppression as the contacts list shows it: the latest entry of any sender. */
export type SuppressionView = {
  source: 'keyword' | 'manual' | 'migrated' | 'failed';
  keyword: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  at: Date;
};

/** The latest suppression of each number (of this channel's senders when one is given). */
export const suppressionsOf = async (db: Db | Tx, subaccountId: string, phones: string[], channel: Channel | null) => {
  const found = new Map<string, SuppressionView>();
  if (!phones.length) return found;
  const rows = await db
    .select()
    .from(channelSuppressions)
    .where(
      and(
        eq(channelSuppressions.subaccountId, subaccountId),
        inArray(channelSuppressions.phone, phones),
        channel ? inArray(channelSuppressions.sender, sendersOf(channel)) : undefined,
      ),
    );
  for (const row of rows) {
    const known = found.get(row.phone);
    // A STOP the person sent is what the list shows first: only their START lifts it.
    const rank = (source: string) => (source === 'keyword' ? 1 : 0);
    if (
      !known ||
      rank(row.source) > rank(known.source) ||
      (rank(row.source) === rank(known.source) && row.createdAt > known.at)
    )
      found.set(row.phone, {
        source: row.source,
        keyword: row.keyword,
        errorCode: row.errorCode,
        errorMessage: row.errorMessage,
        at: row.createdAt,
      });
  }
  return found;
};

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
