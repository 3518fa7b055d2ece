import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { type AccountView, visibleTo } from '../../platform/account-scope';
import { subaccounts } from '../tenancy/schema';
import { agents } from './schema';

export type AgentRow = typeof agents.$inferSelect;
export type NewAgentRow = typeof agents.$inferInsert;
type DbOrTx = Db | Tx;

/** The agent with its subaccountId, or null (callers check the tenant). */
export const findAgent = async (db: DbOrTx, agentId: string): Promise<AgentRow | null> => {
  const rows = await db.select().from(agents).where(eq(agents.id, agentId)).limit(1);
  return rows[0] ?? null;
};

/** The agent when it belongs to the sub-account, else null (another tenant's id answers 404). */
export const findAgentIn = async (db: DbOrTx, subaccountId: string, agentId: string): Promise<AgentRow | null> => {
  const rows = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const listAgents = async (db: DbOrTx, subaccountId: string, page: number, limit: number) => {
  const where = eq(agents.subaccountId, subaccountId);
  const [items, totals] = await Promise.all([
    db
      .select()
      .from(agents)
      .where(where)
      .orderBy(desc(agents.createdAt), desc(agents.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(agents).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
};

export const insertAgent = async (db: DbOrTx, row: NewAgentRow): Promise<AgentRow> => {
  const inserted = await db.insert(agents).values(row).returning();
  const agent = inserted[0];
  if (!agent) throw new Error('The agent was not inserted');
  return agent;
};

export const updateAgent = async (
  db: DbOrTx,
  subaccountId: string,
  agentId: string,
  patch: Partial<NewAgentRow>,
): Promise<AgentRow | null> => {
  const rows = await db
    .update(agents)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(agents.id, agentId), eq(agents.subaccountId, subaccountId)))
    .returning();
  return rows[0] ?? null;
};

export const deleteAgent = async (db: DbOrTx, subaccountId: string, agentId: string): Promise<boolean> => {
  const rows = await db
    .delete(agents)
    .where(and(eq(agents.id, agentId), eq(agents.subaccountId, subaccountId)))
    .returning({ id: agents.id });
  return rows.length > 0;
};

/** Agents per sub-account in one query (registered as the tenancy agent counter). */
/** The names of an account's agents a view may see, by id (billing's usage by agent). */
export const agentNamesIn = async (db: Db, view: AccountView): Promise<Map<string, string>> => {
  const rows = await db
    .select({ id: agents.id, name: agents.name })
    .from(agents)
    .innerJoin(subaccounts, eq(subaccounts.id, agents.subaccountId))
    .where(and(eq(subaccounts.accountId, view.accountId), visibleTo(view, subaccounts.id)));
  return new Map(rows.map((row) => [row.id, row.name]));
};

/** The agents of one sub-account (the plan's agents-per-sub-account limit counts them). */
export const countAgentsIn = async (db: Db | Tx, subaccountId: string): Promise<number> => {
  const [row] = await db.select({ n: count() }).from(agents).where(eq(agents.subaccountId, subaccountId));
  return row?.n ?? 0;
};

export const countAgents = async (db: Db, subaccountIds: string[]): Promise<Map<string, number>> => {
  if (!subaccountIds.length) return new Map();
  const rows = await db
    .select({ subaccountId: agents.subaccountId, total: count() })
    .from(agents)
    .where(inArray(agents.subaccountId, subaccountIds))
    .groupBy(agents.subaccountId);
  return new Map(rows.map((row) => [row.subaccountId, Number(row.total)]));
};
