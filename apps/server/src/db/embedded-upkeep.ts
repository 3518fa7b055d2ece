import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Db, rowsOf } from './client';

/**
 * Upkeep of the embedded database. PGlite runs PostgreSQL in single-user mode, without the
 * autovacuum workers that look after a server's tables, so without this:
 * - the planner has no statistics: a table never analysed is planned as nearly empty, and a
 *   lookup that should probe a unique index scans a whole range instead (metering's idempotency
 *   check read every ledger entry of the account, slower with each call metered);
 * - dead rows of updated tables are never reclaimed, and old transaction ids are never frozen.
 *
 * A pass vacuums and analyses each table of at least MIN_PAGES that was never analysed or has grown
 * to twice its size and by a megabyte since it last was (the planner scales the row counts it knows
 * by a table's current size, so statistics stay good while a table grows, and passes grow rarer as
 * it does); once a day every such table (the dead rows of updates and deletes); and any table whose
 * oldest transaction id is getting old. Smaller tables are left to the planner's own assumptions:
 * for a table never analysed it assumes at least ten pages, so it probes indexes, where statistics
 * of a nearly empty table would make it scan, and keep scanning as the table grows in a plan it has
 * cached (foreign-key checks keep theirs for the life of the connection).
 *
 * One table at a time with a turn of the event loop between tables, so requests keep being served;
 * a table takes tens of milliseconds (a large one, taken for the first time, more). The first pass
 * runs at start, before the server serves; then one every minute (PostgreSQL's autovacuum_naptime).
 */

/** Transaction-id age past which a table is vacuumed whatever its size (PostgreSQL's vacuum_freeze_table_age). */
const FREEZE_AGE = 150_000_000;
/** Growth, beyond doubling, that makes a table due: a megabyte (autovacuum's thresholds also add a fixed part). */
const GROWTH_PAGES = 128;
/** Tables smaller than this (512 KB) are left alone, but for their transaction ids. */
const MIN_PAGES = 64;
const DAY_MS = 24 * 60 * 60 * 1000;

type TableState = { name: string; pages: number; pagesAtLastUpkeep: number; analysed: boolean; age: number };

const tableStates = async (db: Db): Promise<TableState[]> =>
  rowsOf<{ name: string; pages: number | string; relpages: number; analysed: boolean; age: number | string }>(
    await db.execute(sql`
      SELECT c.relname AS name, pg_relation_size(c.oid) / current_setting('block_size')::int AS pages,
        c.relpages, c.reltuples >= 0 AS analysed, age(c.relfrozenxid) AS age
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = current_schema()
      ORDER BY c.relname`),
  ).map((row) => ({
    name: row.name,
    pages: Number(row.pages),
    pagesAtLastUpkeep: Number(row.relpages),
    analysed: row.analysed,
    age: Number(row.age),
  }));

/** Whether a pass takes the table: `all` takes every table of at least MIN_PAGES. */
const due = (table: TableState, all: boolean) =>
  table.age >= FREEZE_AGE ||
  (table.pages >= MIN_PAGES && (all || !table.analysed || table.pages >= table.pagesAtLastUpkeep * 2 + GROWTH_PAGES));

/** VACUUM runs outside a transaction block: sent on its own, by PGlite's simple protocol. */
const vacuum = async (db: Db, table: string) => {
  const client = (db as unknown as { $client: { exec(query: string): Promise<unknown> } }).$client;
  await client.exec(`VACUUM (ANALYZE) "${table.replace(/"/g, '""')}"`);
};

/** Runs one pass; answers the tables it vacuumed and analysed. */
export const runUpkeepPass = async (db: Db, { all = false } = {}): Promise<string[]> => {
  const done: string[] = [];
  for (const table of await tableStates(db)) {
    if (!due(table, all)) continue;
    await nextTurn();
    await vacuum(db, table.name);
    done.push(table.name);
  }
  return done;
};

export interface EmbeddedUpkeep {
  stop(): void;
}

/** Runs the first pass (at start, before the server serves), then one every `intervalMs`. */
export const startEmbeddedUpkeep = async (
  db: Db,
  log: Pick<Logger, 'info' | 'error'>,
  { intervalMs = 60_000 } = {},
): Promise<EmbeddedUpkeep> => {
  let running = false;
  let lastFullPass = Date.now();
  const pass = async () => {
    if (running) return;
    running = true;
    const started = performance.now();
    const all = Date.now() - lastFullPass >= DAY_MS;
    try {
      const tables = await runUpkeepPass(db, { all });
      if (all) lastFullPass = Date.now();
      if (tables.length) {
        const ms = Math.round(performance.now() - started);
        log.info({ tables, ms }, 'embedded database upkeep: tables vacuumed and analysed');
      }
    } catch (error) {
      log.error({ err: error }, 'embedded database upkeep failed');
    } finally {
      running = false;
    }
  };
  await pass();
  const every = setInterval(pass, intervalMs);
  every.unref();
  return { stop: () => clearInterval(every) };
};
