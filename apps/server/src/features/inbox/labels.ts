import {
  INBOX_LIMITS,
  type TCreateLabelRequest,
  type TInboxLabel,
  type TLabelColor,
  type TUpdateLabelRequest,
} from '@switchboard/core';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { subaccounts } from '../tenancy/schema';
import { publishInboxChange } from './events';
import { inboxLabels, threadLabels } from './schema';
import { inboxThreadOf, isUniqueViolation } from './threads-owned';

const toLabel = (row: typeof inboxLabels.$inferSelect): TInboxLabel => ({
  labelId: row.id,
  name: row.name,
  color: row.color as TLabelColor,
});

const taken = (name: string) =>
  new AppError('CONFLICT', `A label named "${name}" already exists`, { field: 'name', reason: 'label_name_taken' });

export const listLabels = async (deps: Deps, subaccountId: string) => {
  const rows = await deps.db
    .select()
    .from(inboxLabels)
    .where(eq(inboxLabels.subaccountId, subaccountId))
    .orderBy(asc(sql`lower(${inboxLabels.name})`));
  return { labels: rows.map(toLabel) };
};

/** Locks the sub-account (two creates at once cannot both pass the limit) and checks the name is free. */
const lockAndCheckName = async (tx: Tx, subaccountId: string, name: string, except?: string) => {
  await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.id, subaccountId)).for('update');
  const same = await tx
    .select({ id: inboxLabels.id })
    .from(inboxLabels)
    .where(
      and(
        eq(inboxLabels.subaccountId, subaccountId),
        eq(sql`lower(${inboxLabels.name})`, name.toLowerCase()),
        except ? ne(inboxLabels.id, except) : undefined,
      ),
    )
    .limit(1);
  if (same[0]) throw taken(name);
};

const withUniqueName = async <T>(name: string | undefined, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (name && isUniqueViolation(error)) throw taken(name);
    throw error;
  }
};

export const createLabel = async (deps: Deps, subaccountId: string, input: TCreateLabelRequest) => {
  const label = await withUniqueName(input.name, () =>
    deps.db.transaction(async (tx) => {
      await lockAndCheckName(tx, subaccountId, input.name);
      const [{ value } = { value: 0 }] = await tx
        .select({ value: count() })
        .from(inboxLabels)
        .where(eq(inboxLabels.subaccountId, subaccountId));
      if (value >= INBOX_LIMITS.labelsPerSubaccount)
        throw new AppError('CONFLICT', `A sub-account has at most ${INBOX_LIMITS.labelsPerSubaccount} labels`, {
          reason: 'label_limit',
        });
      const [row] = await tx
        .insert(inboxLabels)
        .values({ id: newId('inboxLabel'), subaccountId, name: input.name, color: input.color })
        .returning();
      return toLabel(row as typeof inboxLabels.$inferSelect);
    }),
  );
  await publishInboxChange(deps, subaccountId, { kind: 'labels' });
  return label;
};

const notFound = () => new AppError('NOT_FOUND', 'The label does not exist or was deleted.');

export const updateLabel = async (deps: Deps, subaccountId: string, labelId: string, input: TUpdateLabelRequest) => {
  const label = await withUniqueName(input.name, () =>
    deps.db.transaction(async (tx) => {
      if (input.name !== undefined) await lockAndCheckName(tx, subaccountId, input.name, labelId);
      const [row] = await tx
        .update(inboxLabels)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.color !== undefined ? { color: input.color } : {}),
        })
        .where(and(eq(inboxLabels.id, labelId), eq(inboxLabels.subaccountId, subaccountId)))
        .returning();
      if (!row) throw notFound();
      return toLabel(row);
    }),
  );
  await publishInboxChange(deps, subaccountId, { kind: 'labels' });
  return label;
};

/** Deletes the label; the threads that carried it lose it. */
export const deleteLabel = async (deps: Deps, subaccountId: string, labelId: string) => {
  const removed = await deps.db
    .delete(inboxLabels)
    .where(and(eq(inboxLabels.id, labelId), eq(inboxLabels.subaccountId, subaccountId)))
    .returning({ id: inboxLabels.id });
  if (!removed[0]) throw notFound();
  await publishInboxChange(deps, subaccountId, { kind: 'labels' });
};

/** The labels a thread carries from now on: each must be one of the sub-account's. */
export const setThreadLabels = async (deps: Deps, subaccountId: string, threadId: string, labelIds: string[]) => {
  const wanted = [...new Set(labelIds)];
  const result = await deps.db.transaction(async (tx) => {
    const thread = await inboxThreadOf(tx, subaccountId, threadId);
    if (wanted.length) {
      const known = await tx
        .select({ id: inboxLabels.id })
        .from(inboxLabels)
        .where(and(eq(inboxLabels.subaccountId, subaccountId), inArray(inboxLabels.id, wanted)));
      if (known.length !== wanted.length)
        throw new AppError('VALIDATION_ERROR', 'One of the labels does not exist or was deleted.', {
          field: 'labelIds',
        });
    }
    await tx.delete(threadLabels).where(eq(threadLabels.threadId, thread.id));
    if (wanted.length)
      await tx.insert(threadLabels).values(wanted.map((labelId) => ({ threadId: thread.id, labelId, subaccountId })));
    return { threadId: thread.id, labelIds: wanted };
  });
  await publishInboxChange(deps, subaccountId, { kind: 'labels', threadId: result.threadId });
  return result;
};
