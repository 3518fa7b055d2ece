import { lt, sql } from 'drizzle-orm';
import { widgetCounters } from '../features/connections/schema';
import type { Deps } from './deps';

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
    const pipeline = deps.redis.pipeline();
    for (const hit of hits) {
      const key = `sb:wc:${hit.key}:${hit.window}`;
      pipeline.incr(key);
      // The window is part of the key, so pushing the expiry on every hit is harmless (and works before Redis 7).
      pipeline.expire(key, hit.ttlSeconds);
    }
    const results = (await pipeline.exec()) ?? [];
    return hits.map((_, index) => Number(results[index * 2]?.[1] ?? 0));
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

/** Drops counters whose window has passed. */
export const pruneCounters = async (deps: Deps) => {
  await deps.db.delete(widgetCounters).where(lt(widgetCounters.expiresAt, new Date()));
};

/** The current UTC day (YYYY-MM-DD): the window of the daily message limit. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);
