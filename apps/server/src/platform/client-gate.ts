/**
 * The guard's rules for clients (role `client`: people of a client business in the agency's
 * portal). A client passes a sub-account route only where its rule names what admits clients, and
 * a switch only while the agency has it on; a person who is only ever a client passes no
 * account-free route unless it says so (docs/features/portal.md).
 */
import type { TClientAccess, TClientGate } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accounts, memberships } from '../features/tenancy/schema';
import { AppError } from './errors';

/** Words for a switch in a refusal. */
const SWITCH_WORDS: Record<Exclude<TClientGate, 'read' | 'plan'>, string> = {
  editAgents: 'editing agents',
  inbox: 'replying in the inbox',
  campaigns: 'campaigns and contacts',
};

/**
 * Throws unless a client may use the route: 404 (as to a non-member) where the rule names no
 * client gate, 403 where it names a switch that is off.
 */
export const admitClient = (rule: { client?: TClientGate }, clientAccess: TClientAccess | undefined): void => {
  if (!rule.client) throw new AppError('NOT_FOUND', 'Not found');
  if (rule.client === 'read' || rule.client === 'plan') return;
  if (!clientAccess?.[rule.client]) {
    throw new AppError('FORBIDDEN', `Your agency has not turned on ${SWITCH_WORDS[rule.client]} for your account`, {
      reason: 'client_access_off',
    });
  }
};

/** True when the user is a client somewhere, holds no other role and owns no agency (one statement). */
export const isClientOnly = async (db: Db, userId: string): Promise<boolean> => {
  const [row] = await db
    .select({
      clientOnly: sql<boolean>`EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.userId} = ${userId})
        AND NOT EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.userId} = ${userId} AND ${memberships.role} <> 'client')
        AND NOT EXISTS (SELECT 1 FROM ${accounts} WHERE ${accounts.ownerUserId} = ${userId})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return row?.clientOnly === true;
};
