import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agents } from '../agents/schema';
import { type DemoRow, demos } from './schema';

export type AgentSummary = Pick<typeof agents.$inferSelect, 'id' | 'subaccountId' | 'provider' | 'model'>;

export const findDemo = async (db: Db, demoId: string): Promise<DemoRow | null> => {
  const rows = await db.select().from(demos).where(eq(demos.id, demoId)).limit(1);
  return rows[0] ?? null;
};

export const findDemoInSubaccount = async (db: Db, subaccountId: string, demoId: string) => {
  const rows = await db
    .select()
    .from(demos)
    .where(and(eq(demos.id, demoId), eq(demos.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const listDemos = async (db: Db, subaccountId: string, page: number, limit: number) => {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(demos)
      .where(eq(demos.subaccountId, subaccountId))
      .orderBy(desc(demos.createdAt), desc(demos.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(demos).where(eq(demos.subaccountId, subaccountId)),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
};

/** The agents behind a page of demos, in one query. */
export const agentsByIds = async (db: Db, ids: string[]): Promise<Map<string, AgentSummary>> => {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: agents.id, subaccountId: agents.subaccountId, provider: agents.provider, model: agents.model })
    .from(agents)
    .where(inArray(agents.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
};

/**
 * Takes one request from the demo's allowance: a single conditional UPDATE, so concurrent
 * visitors can never pass the limit. Null when the limit is reached.
 */
export const reserveRequest = async (db: Db, demoId: string) => {
  const rows = await db
    .update(demos)
    .set({ requestCount: sql`${demos.requestCount} + 1` })
    .where(and(eq(demos.id, demoId), sql`${demos.requestCount} < ${demos.requestLimit}`))
    .returning({ requestCount: demos.requestCount, requestLimit: demos.requestLimit });
  return rows[0] ?? null;
};

/** Gives back a reserved request when no answer was delivered. */
export const releaseRequest = async (db: Db, demoId: string) => {
  await db
    .update(demos)
    .set({ requestCount: sql`greatest(${demos.requestCount} - 1, 0)` })
    .where(eq(demos.id, demoId));
};
