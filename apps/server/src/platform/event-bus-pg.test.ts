import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/client';
import { freePort } from '../testing/free-port';
import { createScratchDatabase } from '../testing/scratch-database';
import { APPLICATION_NAME, createPostgresBus, type PostgresBus } from './event-bus-pg';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two buses on one database stand for two app processes. */
describe.runIf(Boolean(process.env.DATABASE_URL))('event bus on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const open: PostgresBus[] = [];
  const bus = async () => {
    const created = await createPostgresBus({ url: scratch.url });
    open.push(created);
    return created;
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL as string, 'sbbus');
    const database = await openDatabase({ url: scratch.url, poolSize: 1 });
    await database.close();
  }, 60_000);

  afterAll(async () => {
    for (const each of open) await each.close();
    await scratch?.drop();
  });

  it('delivers to its own process at once and once, and to another process once', async () => {
    const one = await bus();
    const two = await bus();
    const own: unknown[] = [];
    const other: unknown[] = [];
    one.subscribe('thread:1', (payload) => own.push(payload));
    two.subscribe('thread:1', (payload) => other.push(payload));
    const published = one.publish('thread:1', { text: 'hello' });
    expect(own).toEqual([{ text: 'hello' }]);
    await published;
    await vi.waitFor(() => expect(other).toEqual([{ text: 'hello' }]));
    await pause(150);
    expect(own).toEqual([{ text: 'hello' }]);
    expect(other).toEqual([{ text: 'hello' }]);
  });

  it('keeps the order of the events of one turn, equal and stored ones included', async () => {
    const one = await bus();
    const two = await bus();
    const seen: string[] = [];
    two.subscribe('d', (payload) => seen.push(`d:${JSON.stringify(payload)}`));
    two.subscribe('e', (payload) => seen.push(`e:${JSON.stringify(payload)}`));
    const large = 'x'.repeat(9000);
    await Promise.all([
      one.publish('d', 1),
      one.publish('e', 2),
      one.publish('d', 1),
      one.publish('e', large),
      one.publish('d', 3),
      one.publish('e', null),
    ]);
    const expected = ['d:1', 'e:2', 'd:1', `e:"${large}"`, 'd:3', 'e:null'];
    await vi.waitFor(() => expect(seen).toEqual(expected));
    await pause(150);
    expect(seen).toEqual(expected);
  });

  it('sends one statement at a time on its connection, however the turns of the event loop overlap', async () => {
    // Statements on each bus connection, counted while they run.
    const running = new WeakMap<object, number>();
    let most = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client & { connectionParameters?: { application_name?: string } },
      ...args: unknown[]
    ) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (this.connectionParameters?.application_name !== APPLICATION_NAME || !(result instanceof Promise))
        return result;
      running.set(this, (running.get(this) ?? 0) + 1);
      most = Math.max(most, running.get(this) ?? 0);
      return result.finally(() => running.set(this, (running.get(this) ?? 1) - 1));
    } as typeof query);
    try {
      const one = await bus();
      const two = await bus();
      const seen: unknown[] = [];
      two.subscribe('f', (payload) => seen.push(payload));
      const large = 'y'.repeat(9000);
      const published: Promise<void>[] = [];
      for (let i = 0; i < 30; i += 1) {
        published.push(one.publish('f', i % 5 === 0 ? `${i}${large}` : i));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(published);
      const expected = Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? `${i}${large}` : i));
      await vi.waitFor(() => expect(seen).toEqual(expected));
      expect(most).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('carries an event of 20 KB whole through the payload table', async () => {
    const one = await bus();
    const two = await bus();
    const other: unknown[] = [];
    two.subscribe('thread:big', (payload) => other.push(payload));
    const payload = { text: 'é'.repeat(10_000), parts: Array.from({ length: 50 }, (_, i) => i) };
    await one.publish('thread:big', payload);
    await vi.waitFor(() => expect(other).toEqual([payload]));
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const stored = await client.query('select count(*)::int as count from bus_payloads');
    await client.end();
    expect(stored.rows[0].count).toBeGreaterThan(0);
  });

  it('delivers nothing after closing', async () => {
    const one = await bus();
    const two = await bus();
    const own: unknown[] = [];
    const other: unknown[] = [];
    one.subscribe('c', (payload) => own.push(payload));
    two.subscribe('c', (payload) => other.push(payload));
    await two.close();
    await one.publish('c', 'after the other closed');
    await one.close();
    await one.publish('c', 'after closing');
    await pause(200);
    expect(own).toEqual(['after the other closed']);
    expect(other).toEqual([]);
  });

  it('listens again after its connection is killed, and keeps delivering in process meanwhile', async () => {
    const one = await bus();
    const two = await bus();
    const own: unknown[] = [];
    const other: unknown[] = [];
    one.subscribe('r', (payload) => own.push(payload));
    two.subscribe('r', (payload) => other.push(payload));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    const killed = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1',
      [APPLICATION_NAME],
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(one.listening() || two.listening()).toBe(false));
    await one.publish('r', 'while down');
    expect(own).toEqual(['while down']);
    await vi.waitFor(() => expect(one.listening() && two.listening()).toBe(true), { timeout: 5000 });
    await one.publish('r', 'back');
    await vi.waitFor(() => expect(other).toEqual(['back']));
    expect(own).toEqual(['while down', 'back']);
  });

  it('never throws when the database is unreachable', async () => {
    const port = await freePort();
    const down = await createPostgresBus({ url: `postgres://postgres@127.0.0.1:${port}/none` });
    const own: unknown[] = [];
    down.subscribe('c', (payload) => own.push(payload));
    expect(down.listening()).toBe(false);
    await down.publish('c', 'local only');
    expect(own).toEqual(['local only']);
    await down.close();
  });
});
