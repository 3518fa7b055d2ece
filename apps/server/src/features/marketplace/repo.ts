import type { TProjectListQuery } from '@switchboard/core';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { users } from '../tenancy/schema';
import {
  marketplaceDailyCounts,
  marketplaceProjects,
  marketplaceResponses,
  type ProjectRow,
  userProfiles,
} from './schema';

/** `%`, `_` and `\` in a search are matched literally. */
const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export type ListFilter = TProjectListQuery;

const whereOf = (filter: ListFilter, userId: string): SQL | undefined => {
  const conditions: SQL[] = [];
  if (filter.mine) conditions.push(eq(marketplaceProjects.userId, userId));
  else conditions.push(eq(marketplaceProjects.status, 'open'));
  if (filter.q) {
    const pattern = likePattern(filter.q);
    const match = or(
      ilike(marketplaceProjects.title, pattern),
      ilike(marketplaceProjects.description, pattern),
      ilike(marketplaceProjects.companyName, pattern),
    );
    if (match) conditions.push(match);
  }
  if (filter.category) conditions.push(eq(marketplaceProjects.category, filter.category));
  if (filter.type) conditions.push(eq(marketplaceProjects.marketplaceType, filter.type));
  if (filter.priceType) conditions.push(eq(marketplaceProjects.priceType, filter.priceType));
  if (filter.timeframe) conditions.push(eq(marketplaceProjects.timeframe, filter.timeframe));
  if (filter.minBudget !== undefined) conditions.push(gte(marketplaceProjects.priceValue, filter.minBudget));
  if (filter.maxBudget !== undefined) conditions.push(lte(marketplaceProjects.priceValue, filter.maxBudget));
  return and(...conditions);
};

export const listProjects = async (db: Db, filter: ListFilter, userId: string) => {
  const where = whereOf(filter, userId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(marketplaceProjects)
      .where(where)
      .orderBy(desc(marketplaceProjects.createdAt), desc(marketplaceProjects.id))
      .limit(filter.limit)
      .offset((filter.page - 1) * filter.limit),
    db.select({ total: count() }).from(marketplaceProjects).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
};

export const findProject = async (db: Db | Tx, projectId: string): Promise<ProjectRow | null> => {
  const rows = await db.select().from(marketplaceProjects).where(eq(marketplaceProjects.id, projectId)).limit(1);
  return rows[0] ?? null;
};

export interface AuthorInfo {
  userId: string;
  /** The saved profile's name and business; empty without a profile (the project's own are shown). */
  name: string;
  businessName: string;
  image: string | null;
  memberSince: Date;
  projectCount: number;
}

/** The authors of a page of projects with their profiles and open-project counts, in two queries. */
export const authorsOf = async (db: Db, userIds: string[]): Promise<Map<string, AuthorInfo>> => {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  const [people, counts] = await Promise.all([
    db
      .select({
        userId: users.id,
        createdAt: users.createdAt,
        name: userProfiles.name,
        businessName: userProfiles.businessName,
        image: userProfiles.image,
      })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(inArray(users.id, ids)),
    db
      .select({ userId: marketplaceProjects.userId, n: count() })
      .from(marketplaceProjects)
      .where(and(inArray(marketplaceProjects.userId, ids), eq(marketplaceProjects.status, 'open')))
      .groupBy(marketplaceProjects.userId),
  ]);
  const countOf = new Map(counts.map((row) => [row.userId, row.n]));
  return new Map(
    people.map((person) => [
      person.userId,
      {
        userId: person.userId,
        name: person.name ?? '',
        businessName: person.businessName ?? '',
        image: person.image ?? null,
        memberSince: person.createdAt,
        projectCount: countOf.get(person.userId) ?? 0,
      },
    ]),
  );
};

/** Responses per project for a page of projects, in one query. */
export const responseCounts = async (db: Db, projectIds: string[]): Promise<Map<string, number>> => {
  if (!projectIds.length) return new Map();
  const rows = await db
    .select({ projectId: marketplaceResponses.projectId, n: count() })
    .from(marketplaceResponses)
    .where(inArray(marketplaceResponses.projectId, projectIds))
    .groupBy(marketplaceResponses.projectId);
  return new Map(rows.map((row) => [row.projectId, row.n]));
};

/**
 * Takes one of today's places: a single upsert that only increments below the limit. Returns the
 * new count, or null when the limit is already reached. Runs in the caller's transaction, so a
 * failed project insert gives the place back.
 */
export const takeDailyPlace = async (tx: Tx, userId: string, day: string, limit: number): Promise<number | null> => {
  const rows = await tx
    .insert(marketplaceDailyCounts)
    .values({ userId, day, count: 1 })
    .onConflictDoUpdate({
      target: [marketplaceDailyCounts.userId, marketplaceDailyCounts.day],
      set: { count: sql`${marketplaceDailyCounts.count} + 1` },
      setWhere: sql`${marketplaceDailyCounts.count} < ${limit}`,
    })
    .returning({ count: marketplaceDailyCounts.count });
  return rows[0]?.count ?? null;
};

export const countToday = async (db: Db, userId: string, day: string): Promise<number> => {
  const rows = await db
    .select({ count: marketplaceDailyCounts.count })
    .from(marketplaceDailyCounts)
    .where(and(eq(marketplaceDailyCounts.userId, userId), eq(marketplaceDailyCounts.day, day)))
    .limit(1);
  return rows[0]?.count ?? 0;
};

export const findProfile = async (db: Db, userId: string) => {
  const rows = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  return rows[0] ?? null;
};

export const upsertProfile = async (
  db: Db | Tx,
  userId: string,
  profile: { name: string; businessName: string; image: string | null },
) => {
  const [row] = await db
    .insert(userProfiles)
    .values({ userId, ...profile })
    .onConflictDoUpdate({ target: userProfiles.userId, set: { ...profile, updatedAt: new Date() } })
    .returning();
  return row;
};
