import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';
import { openTestDeps } from '../testing/harness';
import { hasRedisServer, startRedisServer } from '../testing/redis-server';
import { type CounterHit, type GateHit, incrementCounters, incrementGated } from './counters';
import type { Deps } from './deps';

/**
 * The counters behind the widget's limits, in each of their stores: the database (no REDIS_URL),
 * Redis (one script call), and this process's memory while Redis is unreachable.
 */
let database: Awaited<ReturnType<typeof openTestDeps>>;
let withRedis: Awaited<ReturnType<typeof openTestDeps>> | null = null;
let redis: ChildProcess | null = null;

beforeAll(async () => {
  database = await openTestDeps();
  if (hasRedisServer) {
    const port = await freePort();
    redis = await startRedisServer(port);
    withRedis = await openTestDeps({ REDIS_URL: `redis://127.0.0.1:${port}` });
  }
}, 60_000);

afterAll(async () => {
  await withRedis?.close();
  redis?.kill('SIGKILL');
  await database?.close();
});

let run = 0;
/** Keys of their own for each case, so the stores' counts start at zero. */
const keysFor = (store: string) => {
  run += 1;
  const gate = (name: string, limit: number): GateHit => ({
    key: `test:${store}:${run}:${name}`,
    window: 'w',
    ttlSeconds: 120,
    limit,
  });
  const daily: CounterHit = { key: `test:${store}:${run}:daily`, window: 'd', ttlSeconds: 120 };
  return { gate, daily };
};

const cases = (store: string, deps: () => Deps) => {
  it(`${store}: counts the others only while every gate is within its limit`, async () => {
    const { gate, daily } = keysFor(store);
    const visitor = gate('visitor', 2);
    const address = gate('address', 100);
    expect(await incrementGated(deps(), [visitor, address], [daily])).toEqual({ gates: [1, 1], hits: [1] });
    expect(await incrementGated(deps(), [visitor, address], [daily])).toEqual({ gates: [2, 2], hits: [2] });
    // The visitor is over their limit: the daily count is left as it was.
    expect(await incrementGated(deps(), [visitor, address], [daily])).toEqual({ gates: [3, 3], hits: null });
    expect(await incrementGated(deps(), [gate('another visitor', 2), address], [daily])).toEqual({
      gates: [1, 4],
      hits: [3],
    });
  });

  it(`${store}: counts plain counters in order`, async () => {
    const { daily } = keysFor(store);
    const other = { ...daily, key: `${daily.key}:other` };
    expect(await incrementCounters(deps(), [daily, other])).toEqual([1, 1]);
    expect(await incrementCounters(deps(), [daily])).toEqual([2]);
  });
};

describe('widget counters', () => {
  cases('database', () => ({ ...database.deps, redis: null }));

  describe.runIf(hasRedisServer)('with Redis', () => {
    cases('Redis', () => withRedis?.deps as Deps);

    it('Redis: keeps the counts in Redis, with their expiry', async () => {
      const deps = withRedis?.deps as Deps;
      const { gate, daily } = keysFor('Redis');
      expect(await incrementGated(deps, [gate('visitor', 5)], [daily])).toEqual({ gates: [1], hits: [1] });
      const key = `${deps.env.REDIS_PREFIX}wc:${daily.key}:${daily.window}`;
      expect(await deps.redis?.get(key)).toBe('1');
      expect(await deps.redis?.ttl(key)).toBeGreaterThan(100);
    });

    describe('Redis unreachable', () => {
      beforeAll(async () => {
        redis?.kill('SIGKILL');
        redis = null;
        for (let i = 0; i < 100 && withRedis?.deps.redis?.status === 'ready'; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      cases('this process', () => withRedis?.deps as Deps);
    });
  });
});
