import { and, count, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { assertWithinLimit as assertWithinPlanLimit } from '../billing/limits';
import { connections } from './schema';

export interface ConnectionLimitContext {
  /** The transaction that creates the connection; the account row stays locked in it until commit. */
  tx?: Tx;
  /** The sub-account the connection is created in. */
  subaccountId?: string;
  /** Its type (e.g. 'website-widget'): the limit is per type. */
  connectionType?: string;
}

const countConnections = async (db: Db | Tx, subaccountId: string, type?: string) => {
  const conditions = [eq(connections.subaccountId, subaccountId)];
  if (type) conditions.push(eq(connections.type, type as 'website-widget'));
  const [row] = await db
    .select({ n: count() })
    .from(connections)
    .where(and(...conditions));
  return row?.n ?? 0;
};

/**
 * The plan's connections-per-type limit (billing/limits.ts) with this feature's count of the
 * connections: the widget's connections and the messaging channels call it, in the same words as
 * billing's check of the other kinds, inside the transaction that creates one.
 */
export const assertWithinLimit = async (
  deps: Deps,
  accountId: string,
  kind: 'connections',
  context: ConnectionLimitContext,
): Promise<void> => {
  const { subaccountId, connectionType } = context;
  if (!subaccountId) throw new AppError('VALIDATION_ERROR', 'A sub-account is required', { field: 'subaccountId' });
  await assertWithinPlanLimit(deps, accountId, kind, {
    tx: context.tx,
    count: (db) => countConnections(db, subaccountId, connectionType),
  });
};
