import { sql } from 'drizzle-orm';
import { widgetCounters } from '../features/connections/schema';
import { incrementCounters } from './counters';
import { type Deps, embeddedDatabase } from './deps';

/** The request limits count in one-minute windows. */
export const WINDOW_MS = 60_000;
/** How often a process on PostgreSQL without Redis writes its counts and reads the others'. */
const SYNC_MS = 1000;

/** The current window's number and the seconds until it is over (a refused caller's Retry-After). */
export const currentWindow = (now = Date.now()) => ({
  window: Math.floor(now / WINDOW_MS),
  retryAfterSeconds: Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000)),
});

export interface RequestCounts {
  /** Counts one request under each key in this minute's window; answers each key's count. */
  increment(keys: string[]): Promise<number[]>;
  /** Writes this process's counts to the database and reads the totals of every process. */
  sync(): Promise<void>;
  stop(): void;
}

/** Where the counts are shared between processes: Redis, the database, or nowhere (one process). */
export type CountStore = 'redis' | 'database' | 'memory';

const storeOf = (deps: Deps): CountStore => (deps.redis ? 'redis' : embeddedDatabase(deps) ? 'memory' : 'database');

interface LocalCount {
  window: number;
  /** The count in the database after this process last wrote it (every process's requests). */
  shared: number;
  /** This process's requests since then. */
  unsynced: number;
}

/**
 * The counts behind the per-route request limits (request-limits.ts), which every limited request
 * makes, so each store is used at the cost it can bear:
 * - with REDIS_URL, in Redis: one script call per request, exact across processes (while Redis is
 *   unreachable, per process: counters.ts);
 * - on the embedded database, in this process's memory: its data folder is locked to this one
 *   process, so it sees every request;
 * - on PostgreSQL without Redis, in this process's memory, written to the database once a second
 *   in one statement that answers every process's totals: a request adds no round trip, and the
 *   other processes' requests are seen within a second.
 */
export const createRequestCounts = (deps: Deps, store: CountStore = storeOf(deps)): RequestCounts => {
  const local = new Map<string, LocalCount>();
  const shared = store === 'database';
  let syncing: Promise<void> | null = null;

  const countLocally = (keys: string[]) => {
    const { window } = currentWindow();
    if (local.size > 100_000) for (const [key, entry] of local) if (entry.window < window) local.delete(key);
    return keys.map((key) => {
      let entry = local.get(key);
      if (!entry || entry.window !== window) {
        entry = { window, shared: 0, unsynced: 0 };
        local.set(key, entry);
      }
      entry.unsynced += 1;
      return entry.shared + entry.unsynced;
    });
  };

  const writeCounts = async () => {
    const { window } = currentWindow();
    const batch = [...local].filter(([, entry]) => entry.unsynced > 0 && entry.window === window);
    if (!batch.length) return;
    const deltas = batch.map(([, entry]) => entry.unsynced);
    const rows = await deps.db
      .insert(widgetCounters)
      .values(
        batch.map(([key], index) => ({
          key: `r:${key}`,
          window: String(window),
          count: deltas[index] ?? 0,
          expiresAt: new Date(Date.now() + 2 * WINDOW_MS),
        })),
      )
      .onConflictDoUpdate({
        target: [widgetCounters.key, widgetCounters.window],
        set: { count: sql`${widgetCounters.count} + excluded.count` },
      })
      .returning({ key: widgetCounters.key, count: widgetCounters.count });
    const totals = new Map(rows.map((row) => [row.key.slice(2), row.count]));
    batch.forEach(([key, entry], index) => {
      entry.unsynced -= deltas[index] ?? 0;
      entry.shared = totals.get(key) ?? entry.shared;
    });
  };

  const sync = () => {
    syncing ??= writeCounts()
      .catch((error) => deps.log.warn({ err: error }, 'request limit counts could not be written'))
      .finally(() => {
        syncing = null;
      });
    return syncing;
  };

  const timer = shared ? setInterval(() => void sync(), SYNC_MS) : null;
  timer?.unref();

  return {
    increment: async (keys) => {
      if (store !== 'redis') return countLocally(keys);
      const { window } = currentWindow();
      return incrementCounters(
        deps,
        keys.map((key) => ({ key: `r:${key}`, window: String(window), ttlSeconds: (2 * WINDOW_MS) / 1000 })),
      );
    },
    sync: () => (shared ? sync() : Promise.resolve()),
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
};
