import type { Deps } from '../../platform/deps';
import { isRedisReady } from '../../platform/redis-health';

export interface Check {
  ok: boolean;
  latencyMs: number;
}

export interface ProbeResult {
  database: Check;
  /** null without REDIS_URL. */
  redis: Check | null;
  /** When the probe finished (ms since the epoch). */
  at: number;
}

export interface HealthProbe {
  /** The last result; waits only for the first one, or when nobody has asked for a while. */
  read(): Promise<ProbeResult>;
  stop(): void;
}

export interface ProbeTiming {
  /** How often the database and Redis are probed while health is being asked for. */
  everyMs: number;
  /** A probe that takes longer than this counts as a failure. */
  timeoutMs: number;
  /** Probing stops after this long without a health call; the next call then waits for a probe. */
  idleStopMs: number;
}

const DEFAULT_TIMING: ProbeTiming = { everyMs: 1000, timeoutMs: 2000, idleStopMs: 60_000 };

const round = (ms: number) => Math.round(ms * 100) / 100;

const timed = async (fn: () => Promise<unknown>, timeoutMs: number): Promise<Check> => {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return { ok: true, latencyMs: round(performance.now() - start) };
  } catch {
    return { ok: false, latencyMs: round(performance.now() - start) };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The state of the database and Redis for `/api/health`, probed in the background about once a
 * second while health is being asked for, so a call answers from memory instead of waiting for a
 * round trip queued behind every other request's work. A database that stops answering is
 * reported once its probe times out: within `everyMs + timeoutMs`.
 */
export const createHealthProbe = (
  deps: Pick<Deps, 'database' | 'redis'>,
  timing: ProbeTiming = DEFAULT_TIMING,
): HealthProbe => {
  let last: ProbeResult | null = null;
  let inFlight: Promise<ProbeResult> | null = null;
  let lastReadAt = 0;
  let timer: NodeJS.Timeout | null = null;

  const probe = () => {
    inFlight ??= (async () => {
      const { database, redis } = deps;
      const [db, cache] = await Promise.all([
        timed(() => database.ping(), timing.timeoutMs),
        redis
          ? isRedisReady(redis)
            ? timed(() => redis.ping(), timing.timeoutMs)
            : Promise.resolve({ ok: false, latencyMs: 0 })
          : Promise.resolve(null),
      ]);
      last = { database: db, redis: cache, at: Date.now() };
      return last;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  const tick = () => {
    if (Date.now() - lastReadAt > timing.idleStopMs) stop();
    else if (!inFlight) void probe();
  };

  return {
    read: async () => {
      lastReadAt = Date.now();
      if (!timer) {
        timer = setInterval(tick, timing.everyMs);
        timer.unref();
      }
      // Fresh enough: a probe has finished within the time a failing one takes to be reported.
      const fresh = last && Date.now() - last.at <= timing.everyMs + timing.timeoutMs;
      return fresh && last ? last : probe();
    },
    stop,
  };
};
