import { sql } from 'drizzle-orm';
import { widgetCounters } from '../features/connections/schema';
import { incrementCounters, pruneCounters } from './counters';
import { type Deps, embeddedDatabase } from './deps';

/** The request limits count in one-minute windows. */
export const WINDOW_MS = 60_000;
/** How often a process on PostgreSQL without Redis writes its counts and reads the others'. */
const SYNC_MS = 1000;
/** Keys one process keeps per window; past them new keys are not counted (memory stays bounded). */
const MAX_KEYS = 200_000;
/** Rows written to the database per statement. */
const SLICE = 1000;

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
  /** The count in the database after this process last wrote it (every process's requests). */ shared: number;
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
  /** This window's counts; the map starts again with each window. */
  let local = new Map<string, LocalCount>();
  let localWindow = currentWindow().window;
  /** Keys counted since the last write to the database. */
  let dirty = new Set<string>();
  const shared = store === 'database';
  let syncing: Promise<void> | null = null;
  let prunedWindow = localWindow;

  const countLocally = (keys: string[]) => {
    const { window } = currentWindow();
    if (window !== localWindow) {
      local = new Map();
      dirty = new Set();
      localWindow = window;
    }
    return keys.map((key) => {
      let entry = local.get(key);
      if (!entry) {
        // An address-rotating flood is let through rather than allowed to fill the memory.
        if (local.size >= MAX_KEYS) return 1;
        entry = { shared: 0, unsynced: 0 };
        local.set(key, entry);
      }
      entry.unsynced += 1;
      if (shared) dirty.add(key);
      return entry.shared + entry.unsynced;
    });
  };

  /** Adds this process's counts of some keys to the database's and keeps the totals it answers. */
  const writeSlice = async (window: number, slice: [string, LocalCount][]) => {
    const deltas = slice.map(([, entry]) => entry.unsynced);
    const rows = await deps.db
      .insert(widgetCounters)
      .values(
        slice.map(([key], index) => ({
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
    slice.forEach(([key, entry], index) => {
      entry.unsynced -= deltas[index] ?? 0;
      entry.shared = totals.get(key) ?? entry.shared;
    });
  };

  const writeCounts = async () => {
    const window = localWindow;
    // Rows of past windows are deleted once a window (an indexed delete of expired rows).
    if (window !== prunedWindow) {
      prunedWindow = window;
      await pruneCounters(deps);
    }
    const keys = [...dirty];
    dirty.clear();
    const batch = keys.flatMap((key): [string, LocalCount][] => {
      const entry = local.get(key);
      return entry && entry.unsynced > 0 ? [[key, entry]] : [];
    });
    for (let start = 0; start < batch.length; start += SLICE) {
      const slice = batch.slice(start, start + SLICE);
      try {
        await writeSlice(window, slice);
      } catch (error) {
        // Written again with the next second's counts.
        for (const [key] of batch.slice(start)) if (window === localWindow) dirty.add(key);
        throw error;
      }
    }
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
