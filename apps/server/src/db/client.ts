import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { lockDataDir } from './data-dir-lock';
import { withPipelinedQueries } from './pglite-pipelined';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbDriver = 'pglite' | 'postgres';

/** The rows of `db.execute(sql...)`: both drivers answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  driver: DbDriver;
  ping(): Promise<number>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; without it PGlite is used. */
  url?: string;
  /** PGlite folder; `memory://` for an in-memory database. */
  dataDir?: string;
  poolSize?: number;
  /** PGlite's shared_buffers (PostgreSQL's page cache inside the process), e.g. 32MB. */
  sharedBuffers?: string;
  /**
   * `baseline`: V8 compiles PGlite's WebAssembly with its baseline compiler only (Liftoff), set
   * process-wide before the module is compiled. The optimizing tier's code for PostgreSQL's
   * functions stays resident for the process's life; without it statements run a little slower.
   */
  wasmTiers?: 'baseline' | 'optimizing';
  /**
   * An in-memory database starts from this image of a data folder (`migratedImage`) instead of
   * PostgreSQL's initdb: a test app opens in about 0.4 s instead of 1.8 s.
   */
  image?: Blob;
}

/**
 * PGlite's start parameters: its defaults plus the page cache size (PostgreSQL's default of 128MB
 * is touched at start, and the WebAssembly memory holding it never shrinks), and new WAL files
 * created without writing them full of zeros first: PGlite runs every statement on the main
 * thread, so the statement that crossed into a new 16 MB file held every request for the 20 to
 * 100 ms of writing it (PostgreSQL then writes the file's last byte only, as its documentation
 * describes for `wal_init_zero`).
 */
const pgliteStartParams = (sharedBuffers: string) => [
  ...PGlite.defaultStartParams,
  '-c',
  `shared_buffers=${sharedBuffers}`,
  '-c',
  'wal_init_zero=off',
];

/**
 * Without the build's template (running from source), a new data folder is created (initdb) by a
 * short-lived child process: PGlite's initdb takes about 800 MB of WebAssembly memory and buffers
 * at its peak, which a process keeps once it has had them (WebAssembly memory never shrinks).
 */
const INIT_SCRIPT = `
const [pglitePath, drizzlePath, migratorPath, dataDir, params, migrationsFolder] = process.argv.slice(1);
const { PGlite } = require(pglitePath);
const { drizzle } = require(drizzlePath);
const { migrate } = require(migratorPath);
PGlite.create(dataDir, { startParams: JSON.parse(params) })
  .then(async (client) => {
    await migrate(drizzle(client), { migrationsFolder });
    await client.close();
  })
  .catch((error) => { console.error(error); process.exit(1); });
`;

const createDataDirInChild = (dataDir: string, startParams: string[]) =>
  new Promise<void>((resolve, reject) => {
    const require = createRequire(import.meta.url);
    const modules = ['@electric-sql/pglite', 'drizzle-orm/pglite', 'drizzle-orm/pglite/migrator'].map((name) =>
      require.resolve(name),
    );
    const args = [...modules, dataDir, JSON.stringify(startParams), migrationsFolder()];
    const child = spawn(process.execPath, ['-e', INIT_SCRIPT, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`Creating the database folder failed: ${errors.trim()}`)),
    );
  });

/**
 * The empty data folder the build made (apps/server/dist/pgdata-template, see build.mjs), found
 * from the built bundle or the source tree; null when there is none.
 */
const templateFolder = (): string | null => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    for (const candidate of [path.join(dir, 'pgdata-template'), path.join(dir, 'dist', 'pgdata-template')])
      if (existsSync(path.join(candidate, 'PGLITE_VERSION'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
};

/**
 * A new data folder from the template: its files are copied, PG_VERSION last, so a start cut
 * short mid-copy leaves a folder that the next start copies again.
 */
export const createDataDirFromTemplate = async (template: string, dataDir: string) => {
  for (const name of await readdir(template)) {
    if (name === 'PG_VERSION' || name === 'PGLITE_VERSION') continue;
    await cp(path.join(template, name), path.join(dataDir, name), { recursive: true, force: true });
  }
  await cp(path.join(template, 'PG_VERSION'), path.join(dataDir, 'PG_VERSION'));
};

/** The migrations folder, found from the source tree or from the built bundle. */
const migrationsFolder = (): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Migrations folder apps/server/drizzle not found');
};

const MIGRATION_LOCK = 7_423_001;

/**
 * How long a pooled PostgreSQL connection may stay unused before it is closed. With
 * node-postgres's default of 10 s, a server that had a quiet moment closed every connection, and
 * the requests that woke it each opened a new one (a new backend process, its caches empty).
 */
const POOL_IDLE_TIMEOUT_MS = 300_000;

export const openDatabase = async (options: OpenDatabaseOptions): Promise<Database> => {
  if (options.url) {
    // Loaded only for PostgreSQL: the embedded database never needs the driver in memory.
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
    });
    // An idle connection the server closed (restart, failover) is dropped from the pool; the next
    // query opens a new one, so the error needs no further handling here.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
    return {
      db,
      driver: 'postgres',
      ping: () => timed(() => db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  let unlock = () => {};
  if (!dataDir.startsWith('memory://')) {
    await mkdir(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  try {
    const startParams = pgliteStartParams(options.sharedBuffers ?? '32MB');
    if (!dataDir.startsWith('memory://') && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      const template = templateFolder();
      if (template) await createDataDirFromTemplate(template, dataDir);
      else await createDataDirInChild(dataDir, startParams);
    }
    if (options.wasmTiers === 'baseline') setFlagsFromString('--liftoff-only');
    const image = dataDir.startsWith('memory://') ? options.image : undefined;
    const client = await PGlite.create(dataDir, { startParams, ...(image ? { loadDataDir: image } : {}) });
    const db = drizzlePglite(withPipelinedQueries(client), { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
    return {
      db,
      driver: 'pglite',
      ping: () => timed(() => db.execute(sql`select 1`)),
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
};

const timed = async (fn: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await fn();
  return Math.round((performance.now() - start) * 100) / 100;
};

/**
 * An image (tarball) of an in-memory database with every migration applied, and a key that
 * changes when the migrations or PGlite do, for callers that open many databases (the tests).
 */
export const migratedImage = async (): Promise<Blob> => {
  const client = await PGlite.create('memory://', { startParams: pgliteStartParams('32MB') });
  try {
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
};

/** What a migrated image depends on: every migration's text and PGlite's version. */
export const migratedImageKey = async (): Promise<string> => {
  const folder = migrationsFolder();
  const hash = createHash('sha1');
  for (const name of (await readdir(folder)).filter((file) => file.endsWith('.sql')).sort())
    hash.update(name).update(await readFile(path.join(folder, name)));
  const pglite = await stat(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  hash.update(`${pglite.size}:${pglite.mtimeMs}`);
  hash.update(await readFile(path.join(folder, 'meta', '_journal.json')));
  return hash.digest('hex').slice(0, 16);
};
