import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPipelinedQueries } from './pglite-pipelined';

describe('PGlite with pipelined, prepared queries', () => {
  let raw: PGlite;
  let client: PGlite;
  beforeAll(async () => {
    raw = await PGlite.create('memory://');
    client = withPipelinedQueries(raw);
    await client.exec(`
      create table items (
        id text primary key,
        n int not null,
        price numeric,
        ok boolean,
        tags text[],
        data jsonb,
        at timestamptz
      )`);
  });
  afterAll(() => raw.close());

  it('converts parameters of every kind and reads the results as PGlite does', async () => {
    const at = new Date('2026-11-21T10:00:00.000Z');
    await client.query('insert into items (id, n, price, ok, tags, data, at) values ($1, $2, $3, $4, $5, $6, $7)', [
      'a',
      7,
      '12.50',
      true,
      ['x', 'y "quoted"', null],
      JSON.stringify({ deep: [1, 2] }),
      at,
    ]);
    await client.query('insert into items (id, n) values ($1, $2)', ['b', 8]);
    const pipelined = await client.query('select * from items order by id');
    const own = await raw.query('select * from items order by id');
    expect(pipelined.rows).toEqual(own.rows);
    expect(pipelined.rows[0]).toMatchObject({
      n: 7,
      ok: true,
      tags: ['x', 'y "quoted"', null],
      data: { deep: [1, 2] },
    });
    expect(pipelined.fields.map((field) => field.name)).toEqual(own.fields.map((field) => field.name));
  });

  it('answers affected rows and applies the caller’s parsers, in array row mode too', async () => {
    const updated = await client.query('update items set n = n + $1 where id = any($2::text[])', [1, ['a', 'b']]);
    expect(updated.affectedRows).toBe(2);
    const rows = await client.query<[string, string]>('select id, at from items where id = $1', ['a'], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => `raw:${value}` },
    });
    expect(rows.rows[0]?.[1]).toMatch(/^raw:2026-11-21/);
  });

  it('reports a bad statement with its text and goes on working', async () => {
    await expect(client.query('select nope from items where id = $1', ['a'])).rejects.toMatchObject({
      code: '42703',
      query: 'select nope from items where id = $1',
    });
    await expect(client.query('insert into items (id, n) values ($1, $2)', ['a', 1])).rejects.toMatchObject({
      code: '23505',
    });
    expect((await client.query('select count(*)::int as c from items')).rows).toEqual([{ c: 2 }]);
  });

  it('keeps a transaction all or nothing and queries outside wait for it', async () => {
    let outsideDone = false;
    let outside: Promise<unknown> = Promise.resolve();
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into items (id, n) values ($1, $2)', ['c', 1]);
        outside = client.query('select count(*)::int as c from items').then((result) => {
          outsideDone = true;
          return result.rows;
        });
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(outsideDone).toBe(false);
        await tx.query('insert into items (id, n) values ($1, $2)', ['a', 1]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await outside).toEqual([{ c: 2 }]);
  });

  it('keeps a statement first prepared in a transaction that rolled back', async () => {
    const text = 'select $1::int * 3 as v';
    await expect(
      client.transaction(async (tx) => {
        expect((await tx.query<{ v: number }>(text, [2])).rows[0]?.v).toBe(6);
        await tx.query('select 1 / 0');
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await client.query<{ v: number }>(text, [4])).rows[0]?.v).toBe(12);
  });

  it('prepares each text once and still works after older statements are let go', async () => {
    for (let i = 0; i < 320; i += 1) {
      const result = await client.query<{ v: number }>(`select $1::int + ${i} as v`, [1]);
      expect(result.rows[0]?.v).toBe(i + 1);
    }
    const prepared = await raw.query<{ c: number }>(
      "select count(*)::int as c from pg_prepared_statements where name like 'sb\\_%'",
    );
    expect(prepared.rows[0]?.c).toBeLessThanOrEqual(301);
    expect((await client.query<{ v: number }>('select $1::int + 0 as v', [5])).rows[0]?.v).toBe(5);
  });

  /** Counts the event loop's turns (a callback that queues itself with setImmediate) until stopped. */
  const countTurns = () => {
    const counter = { turns: 0, stop: () => {} };
    let running = true;
    const onIo = () => {
      if (!running) return;
      counter.turns += 1;
      setImmediate(onIo);
    };
    counter.stop = () => {
      running = false;
    };
    setImmediate(onIo);
    return counter;
  };

  /** Runs `statements` in one transaction and answers the turns counted after each. */
  const turnsAfterEach = async (statements: number, text: (i: number) => string, after?: (i: number) => void) => {
    const counter = countTurns();
    const seen: number[] = [];
    await client.transaction(async (tx) => {
      for (let i = 0; i < statements; i += 1) {
        await tx.query(text(i));
        seen.push(counter.turns);
        after?.(i);
      }
    });
    counter.stop();
    return seen;
  };

  it('lets the event loop take a turn before each statement of a transaction', async () => {
    const seen = await turnsAfterEach(3, (i) => `insert into items (id, n) values ('turn-${i}', ${i})`);
    // Other work ran between the statements, not only before or after the whole transaction.
    expect(seen[1]).toBeGreaterThan(seen[0] ?? 0);
    expect(seen[2]).toBeGreaterThan(seen[1] ?? 0);
    expect(
      (await client.query<{ n: number }>("select count(*)::int as n from items where id like 'turn-%'")).rows[0]?.n,
    ).toBe(3);
  });

  it('gives no more turns away once a query outside the transaction waits for it', async () => {
    let outside: Promise<{ rows: { n: number }[] }> | undefined;
    const seen = await turnsAfterEach(
      4,
      (i) => `insert into items (id, n) values ('wait-${i}', ${i})`,
      (i) => {
        // A message write comes while the transaction runs: it waits for the commit.
        if (i === 1) outside = client.query("select count(*)::int as n from items where id like 'wait-%'");
      },
    );
    expect(seen[1]).toBeGreaterThan(seen[0] ?? 0);
    // The statements after it ran back to back.
    expect(seen[3]).toBe(seen[1]);
    expect((await outside)?.rows[0]?.n).toBe(4);
    // With nobody waiting, a transaction gives turns away again.
    const again = await turnsAfterEach(2, () => 'select 1');
    expect(again[1]).toBeGreaterThan(again[0] ?? 0);
  });
});
