import { lt, sql } from 'drizzle-orm';
import { widgetCounters } from '../features/connections/schema';
import type { Deps } from './deps';
import { isRedisReady } from './redis-health';

export interface CounterHit {
  key: string;
  window: string;
  ttlSeconds: number;
}

/**
 * Increments several counters in one round trip and returns their new values, in order.
 * Redis (INCR + EXPIRE in one pipeline) when REDIS_URL is set, a database upsert otherwise.
 */
export const incrementCounters = async (deps: Deps, hits: CounterHit[]): Promise<number[]> => {
  if (deps.redis) {
    if (!isRedisReady(deps.redis)) return incrementLocally(hits);
    try {
      const pipeline = deps.redis.pipeline();
      for (const hit of hits) {
        const key = `${deps.env.REDIS_PREFIX}wc:${hit.key}:${hit.window}`;
        pipeline.incr(key);
        // The window is part of the key, so pushing the expiry on every hit is harmless (and works before Redis 7).
        pipeline.expire(key, hit.ttlSeconds);
      }
      const results = (await pipeline.exec()) ?? [];
      if (results.some(([error]) => error)) return incrementLocally(hits);
      return hits.map((_, index) => Number(results[index * 2]?.[1] ?? 0));
    } catch {
      return incrementLocally(hits);
    }
  }
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

const incrementLocally = (hits: CounterHit[]): number[] => {
  const now = Date.now();
  if (local.size > 100_000) {
    for (const [key, entry] of local) if (entry.expiresAt < now) local.delete(key);
  }
  return hits.map((hit) => {
    const key = `${hit.key}:${hit.window}`;
    const entry = local.get(key);
    if (entry && entry.expiresAt > now) {
      entry.count += 1;
      return entry.count;
    }
    local.set(key, { count: 1, expiresAt: now + hit.ttlSeconds * 1000 });
    return 1;
  });
};

/** Drops counters whose window has passed. */
export const pruneCounters = async (deps: Deps) => {
  await deps.db.delete(widgetCounters).where(lt(widgetCounters.expiresAt, new Date()));
};

/** The current UTC day (YYYY-MM-DD): the window of the daily message limit. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);
