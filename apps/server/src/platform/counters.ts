import { lt, sql } from 'drizzle-orm';
import { widgetCounters } from '../features/connections/schema';
import type { Deps } from './deps';
import { isRedisReady } from './redis-health';
import { incrementGatedScript } from './redis-scripts';

export interface CounterHit {
  key: string;
  window: string;
  ttlSeconds: number;
}

/** A counter that gates others: they are counted only while it stays within `limit`. */
export interface GateHit extends CounterHit {
  limit: number;
}

/**
 * Counts the `gates` and, only when every gate stays within its limit, the `hits` too (a refused
 * message must not use up a larger allowance): one Redis script call when REDIS_URL is set; else
 * an upsert of the gates and, when they pass, one of the others. Answers the new counts, in order;
 * `hits` is null when a gate refused.
 */
export const incrementGated = async (
  deps: Deps,
  gates: GateHit[],
  hits: CounterHit[],
): Promise<{ gates: number[]; hits: number[] | null }> => {
  if (deps.redis) {
    if (!isRedisReady(deps.redis)) return incrementLocally(gates, hits);
    try {
      const all = [...gates, ...hits];
      const counts = await incrementGatedScript(
        deps.redis,
        all.length,
        ...all.map((hit) => `${deps.env.REDIS_PREFIX}wc:${hit.key}:${hit.window}`),
        gates.length,
        ...all.map((hit) => hit.ttlSeconds),
        ...gates.map((gate) => gate.limit),
      );
      return {
        gates: counts.slice(0, gates.length),
        hits: counts.length > gates.length || hits.length === 0 ? counts.slice(gates.length) : null,
      };
    } catch {
      return incrementLocally(gates, hits);
    }
  }
  const counted = gates.length ? await upsertCounters(deps, gates) : [];
  if (gates.some((gate, index) => (counted[index] ?? 0) > gate.limit)) return { gates: counted, hits: null };
  return { gates: counted, hits: hits.length ? await upsertCounters(deps, hits) : [] };
};

/** Increments several counters in one round trip and returns their new values, in order. */
export const incrementCounters = async (deps: Deps, hits: CounterHit[]): Promise<number[]> =>
  (await incrementGated(deps, [], hits)).hits ?? [];

const upsertCounters = async (deps: Deps, hits: CounterHit[]): Promise<number[]> => {
  const now = Date.now();
  const rows = await deps.db
    .insert(widgetCounters)
    .values(
      hits.map((hit) => ({
        key: hit.key,
        window: hit.window,
        count: 1,
        expiresAt: new Date(now + hit.ttlSeconds * 1000),
      })),
    )
    .onConflictDoUpdate({
      target: [widgetCounters.key, widgetCounters.window],
      set: { count: sql`${widgetCounters.count} + 1` },
    })
    .returning({ key: widgetCounters.key, window: widgetCounters.window, count: widgetCounters.count });
  if (Math.random() < 0.001) void pruneCounters(deps).catch(() => undefined);
  return hits.map((hit) => rows.find((row) => row.key === hit.key && row.window === hit.window)?.count ?? 0);
};

/** Counters of this process, used while Redis is unreachable (limits then apply per process). */
const local = new Map<string, { count: number; expiresAt: number }>();

const incrementLocally = (gates: GateHit[], hits: CounterHit[]): { gates: number[]; hits: number[] | null } => {
  const now = Date.now();
  if (local.size > 100_000) {
    for (const [key, entry] of local) if (entry.expiresAt < now) local.delete(key);
  }
  const count = (hit: CounterHit) => {
    const key = `${hit.key}:${hit.window}`;
    const entry = local.get(key);
    if (entry && entry.expiresAt > now) {
      entry.count += 1;
      return entry.count;
    }
    local.set(key, { count: 1, expiresAt: now + hit.ttlSeconds * 1000 });
    return 1;
  };
  const counted = gates.map(count);
  if (gates.some((gate, index) => (counted[index] ?? 0) > gate.limit)) return { gates: counted, hits: null };
  return { gates: counted, hits: hits.map(count) };
};

/** Drops counters whose window has passed. */
export const pruneCounters = async (deps: Deps) => {
  await deps.db.delete(widgetCounters).where(lt(widgetCounters.expiresAt, new Date()));
};

/** The current UTC day (YYYY-MM-DD): the window of the daily message limit. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);
