import { INBOX_CHANNELS, type TInboxChannel } from '@switchboard/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { threads } from '../conversations/schema';

/** A thread of the sub-account that the inbox shows (a channel conversation), or 404. */
export const inboxThreadOf = async (db: Db | Tx, subaccountId: string, threadId: string) => {
  const rows = await db
    .select({
      id: threads.id,
      channel: threads.channel,
      contactIdentifier: threads.contactIdentifier,
      assignedUserId: threads.assignedUserId,
    })
    .from(threads)
    .where(
      and(
        eq(threads.id, threadId),
        eq(threads.subaccountId, subaccountId),
        inArray(threads.channel, [...INBOX_CHANNELS]),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) throw new AppError('THREAD_NOT_FOUND', 'The conversation does not exist or was deleted.');
  return { ...row, channel: row.channel as TInboxChannel };
};

export const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string } }).cause;
  return ((error as { code?: string }).code ?? cause?.code) === '23505';
};
