import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../seed';
import { type Database, openDatabase, rowsOf } from './client';
import { runUpkeepPass } from './embedded-upkeep';

describe('upkeep of the embedded database', () => {
  let database: Database;
  let accountId: string;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    accountId = (
      await seedAgency(database.db, {
        accountName: 'Upkeep',
        owner: { email: 'owner@upkeep.test', name: 'Owner' },
        subaccounts: ['Main'],
      })
    ).accountId;
  });
  afterAll(() => database.close());

  it('creates WAL files without filling them with zeros (that write would hold the main thread)', async () => {
    const [row] = rowsOf<{ wal_init_zero: string }>(await database.db.execute(sql`SHOW wal_init_zero`));
    expect(row?.wal_init_zero).toBe('off');
  });

  const addLedgerEntries = (from: number, to: number) =>
    database.db.execute(sql`
      INSERT INTO credit_entries (id, account_id, kind, amount, idempotency_key)
      SELECT 'cre_' || g, ${accountId}, 'usage_debit', -1, 'usage:call-' || g FROM generate_series(${from}::int, ${to}::int) g`);

  /** The plan of a ledger lookup by idempotency key (twenty keys of the account). */
  const idempotencyPlan = async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `usage:call-${i * 200 + 1}`);
    return rowsOf<{ 'QUERY PLAN': string }>(
      await database.db.execute(sql`
        EXPLAIN SELECT idempotency_key, amount FROM credit_entries
        WHERE account_id = ${accountId} AND idempotency_key IN (${sql.join(
          keys.map((key) => sql`${key}`),
          sql`, `,
        )})`),
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  };

  it('analyses a grown table, so lookups probe its unique index instead of reading the whole account', async () => {
    await addLedgerEntries(1, 10000);
    const done = await runUpkeepPass(database.db);
    expect(done).toContain('credit_entries');
    const [stats] = rowsOf<{ reltuples: number }>(
      await database.db.execute(sql`SELECT reltuples FROM pg_class WHERE relname = 'credit_entries'`),
    );
    expect(Number(stats?.reltuples)).toBeGreaterThan(9000);
    expect(await idempotencyPlan()).toContain('credit_entries_account_key_idx');
  });

  it('leaves tables that did not change, and takes one again once it has doubled and grown by a megabyte', async () => {
    expect(await runUpkeepPass(database.db)).not.toContain('credit_entries');
    await addLedgerEntries(10001, 10100);
    expect(await runUpkeepPass(database.db)).not.toContain('credit_entries');
    await addLedgerEntries(10101, 60000);
    expect(await runUpkeepPass(database.db)).toContain('credit_entries');
  });

  it('leaves small tables to the planner, but for a full pass of the larger ones', async () => {
    const done = await runUpkeepPass(database.db, { all: true });
    expect(done).toContain('credit_entries');
    expect(done).not.toContain('accounts');
    expect(done).not.toContain('messages');
  });
});
