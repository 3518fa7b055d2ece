import { INBOX_LIMITS, type TCannedReply, type TCannedReplyInput } from '@switchboard/core';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { subaccounts } from '../tenancy/schema';
import { publishInboxChange } from './events';
import { cannedReplies } from './schema';
import { isUniqueViolation } from './threads-owned';

const toReply = (row: typeof cannedReplies.$inferSelect): TCannedReply => ({
  cannedReplyId: row.id,
  title: row.title,
  content: row.content,
});

const taken = (title: string) =>
  new AppError('CONFLICT', `A canned reply titled "${title}" already exists`, {
    field: 'title',
    reason: 'canned_title_taken',
  });
const notFound = () => new AppError('NOT_FOUND', 'The canned reply does not exist or was deleted.');

export const listCannedReplies = async (deps: Deps, subaccountId: string) => {
  const rows = await deps.db
    .select()
    .from(cannedReplies)
    .where(eq(cannedReplies.subaccountId, subaccountId))
    .orderBy(asc(sql`lower(${cannedReplies.title})`));
  return { cannedReplies: rows.map(toReply) };
};

/** Creates (no id) or replaces a canned reply; titles are unique in the sub-account whatever their case. */
export const saveCannedReply = async (
  deps: Deps,
  subaccountId: string,
  input: TCannedReplyInput,
  cannedReplyId?: string,
) => {
  try {
    const saved = await deps.db.transaction(async (tx) => {
      await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.id, subaccountId)).for('update');
      const same = await tx
        .select({ id: cannedReplies.id })
        .from(cannedReplies)
        .where(
          and(
            eq(cannedReplies.subaccountId, subaccountId),
            eq(sql`lower(${cannedReplies.title})`, input.title.toLowerCase()),
            cannedReplyId ? ne(cannedReplies.id, cannedReplyId) : undefined,
          ),
        )
        .limit(1);
      if (same[0]) throw taken(input.title);
      if (cannedReplyId) {
        const [row] = await tx
          .update(cannedReplies)
          .set({ title: input.title, content: input.content, updatedAt: new Date() })
          .where(and(eq(cannedReplies.id, cannedReplyId), eq(cannedReplies.subaccountId, subaccountId)))
          .returning();
        if (!row) throw notFound();
        return toReply(row);
      }
      const [{ value } = { value: 0 }] = await tx
        .select({ value: count() })
        .from(cannedReplies)
        .where(eq(cannedReplies.subaccountId, subaccountId));
      if (value >= INBOX_LIMITS.cannedRepliesPerSubaccount)
        throw new AppError(
          'CONFLICT',
          `A sub-account has at most ${INBOX_LIMITS.cannedRepliesPerSubaccount} canned replies`,
          { reason: 'canned_limit' },
        );
      const [row] = await tx
        .insert(cannedReplies)
        .values({ id: newId('cannedReply'), subaccountId, title: input.title, content: input.content })
        .returning();
      return toReply(row as typeof cannedReplies.$inferSelect);
    });
    await publishInboxChange(deps, subaccountId, { kind: 'canned-replies' });
    return saved;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.title);
    throw error;
  }
};

export const deleteCannedReply = async (deps: Deps, subaccountId: string, cannedReplyId: string) => {
  const removed = await deps.db
    .delete(cannedReplies)
    .where(and(eq(cannedReplies.id, cannedReplyId), eq(cannedReplies.subaccountId, subaccountId)))
    .returning({ id: cannedReplies.id });
  if (!removed[0]) throw notFound();
  await publishInboxChange(deps, subaccountId, { kind: 'canned-replies' });
};
