import { and, asc, eq, ne } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { findMembership } from '../../platform/guard';
import { threads } from '../conversations/schema';
import { memberships, users } from '../tenancy/schema';
import { publishInboxChange } from './events';
import { inboxThreadOf } from './threads-owned';

/** The people a conversation can be given to: everyone of the sub-account who can answer (viewers read only). */
export const listAssignees = async (deps: Deps, subaccountId: string) => {
  const rows = await deps.db
    .select({ userId: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.subaccountId, subaccountId), ne(memberships.role, 'viewer')))
    .orderBy(asc(users.email));
  return { assignees: rows.map((row) => ({ ...row, name: row.name || null })) };
};

/** Gives the thread to a person of the sub-account, or to nobody (null). */
export const assignThread = async (deps: Deps, subaccountId: string, threadId: string, userId: string | null) => {
  const thread = await inboxThreadOf(deps.db, subaccountId, threadId);
  if (userId) {
    const membership = await findMembership(deps.db, userId, subaccountId);
    if (!membership)
      throw new AppError('VALIDATION_ERROR', 'That person is not part of this sub-account.', { field: 'userId' });
    if (membership.role === 'viewer')
      throw new AppError('VALIDATION_ERROR', 'A viewer only reads; give the conversation to someone who can answer.', {
        field: 'userId',
      });
  }
  await deps.db
    .update(threads)
    .set({ assignedUserId: userId })
    .where(and(eq(threads.id, thread.id), eq(threads.subaccountId, subaccountId)));
  await publishInboxChange(deps, subaccountId, { kind: 'assignee', threadId: thread.id });
  return { threadId: thread.id, assignedUserId: userId };
};
