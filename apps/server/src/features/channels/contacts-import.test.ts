import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { AppError } from '../../platform/errors';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { onEachStatement } from '../../testing/statement-hook';
import { CONTACTS_PER_STATEMENT } from './contacts-csv';
import { importContacts } from './contacts-import';
import { contacts } from './schema';

let t: TestApp;
let subaccountId: string;

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Importers',
    owner: { email: 'owner@importers.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  subaccountId = agency.subaccountIds[0] ?? '';
});
afterAll(() => t.close());

/** A contacts CSV of `rows` numbers starting at +1 415 `first`, one company name per row. */
const csv = (rows: number, first: number, company: string) =>
  Buffer.from(
    `phone,name,company\n${Array.from({ length: rows }, (_, i) => `+1415${first + i},Customer ${i},${company}`).join('\n')}`,
  );

const mapping = { phone: 'phone', name: 'name', attributes: ['company'] };

/** The test database with a hook before each statement of a sliced write. */
const onEachSlice = (hook: (statement: number) => void): Db => onEachStatement(t.deps.db, hook);

/** The longest the event loop went without running a 5 ms timer, from now until `stop`. */
const watchEventLoop = () => {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    longest = Math.max(longest, performance.now() - last);
    last = performance.now();
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
};

const companyCount = async (company: string) =>
  (
    await t.deps.db
      .select({ n: count() })
      .from(contacts)
      .where(and(eq(contacts.subaccountId, subaccountId), sql`${contacts.attributes}->>'company' = ${company}`))
  )[0]?.n;

describe('importing a large contacts CSV', () => {
  it('keeps the event loop free while the file is read, and answers requests between the slices it stores', async () => {
    const order: string[] = [];
    let statements = 0;
    let reading = { ms: 0, longestHold: 0 };
    const started = performance.now();
    const watch = watchEventLoop();
    const watched = onEachSlice((statement) => {
      statements = statement;
      if (statement > 1) return;
      reading = { ms: performance.now() - started, longestHold: watch.stop() };
      // When the first slice is stored, a request comes in (a macrotask, as a socket's data is).
      setImmediate(() => void t.deps.database.ping().then(() => order.push('request while storing')));
    });
    const file = csv(50_000, 2_000_000, 'Large');
    const report = await importContacts({ ...t.deps, db: watched }, subaccountId, file, mapping);
    order.push('import done');
    expect(report).toEqual({ imported: 50_000, updated: 0, rejected: [], rejectedCount: 0 });
    expect(statements).toBe(50_000 / CONTACTS_PER_STATEMENT);
    expect(order).toEqual(['request while storing', 'import done']);
    // Reading 50,000 rows on the event loop would hold it for nearly all of the reading time.
    expect(reading.longestHold).toBeLessThan(reading.ms / 2);
    expect(await companyCount('Large')).toBe(50_000);
  }, 120_000);

  it('an import that fails part-way says how many contacts were saved, and the same file again saves the rest', async () => {
    const file = csv(5_000, 3_000_000, 'Halfway');
    const saved = 2 * CONTACTS_PER_STATEMENT;
    // The database fails the third slice.
    const failing = onEachSlice((statement) => {
      if (statement === 3) throw new Error('connection lost');
    });
    const error = (await importContacts({ ...t.deps, db: failing }, subaccountId, file, mapping).catch(
      (caught) => caught,
    )) as AppError;
    expect(error).toMatchObject({
      code: 'DATABASE_ERROR',
      reason: 'partial_import',
      message: `The import stopped after ${saved.toLocaleString('en-US')} of 5,000 contacts were saved. Import the same file again to save the rest: the contacts already saved are updated, not added twice.`,
    });
    expect(await companyCount('Halfway')).toBe(saved);

    const again = await importContacts(t.deps, subaccountId, file, mapping);
    expect(again).toMatchObject({ imported: 5_000 - saved, updated: saved, rejectedCount: 0 });
    expect(await companyCount('Halfway')).toBe(5_000);
  }, 60_000);

  it('stores names and attributes with quotes, backslashes, braces and commas as written', async () => {
    const file = Buffer.from(
      'phone,name,company\n+14155550101,"O\'Brien, ""Pat"" \\ {x}",NULL\n+14155550102,,"{""a"": 1}"\n',
    );
    expect(await importContacts(t.deps, subaccountId, file, mapping)).toMatchObject({ imported: 2 });
    const rows = await t.deps.db
      .select({ phone: contacts.phone, name: contacts.name, attributes: contacts.attributes })
      .from(contacts)
      .where(sql`${contacts.phone} in ('+14155550101', '+14155550102')`)
      .orderBy(contacts.phone);
    expect(rows).toEqual([
      { phone: '+14155550101', name: 'O\'Brien, "Pat" \\ {x}', attributes: { company: 'NULL' } },
      { phone: '+14155550102', name: null, attributes: { company: '{"a": 1}' } },
    ]);
  });

  it('a failure of the first slice writes nothing and passes the cause on', async () => {
    const failing = onEachSlice(() => {
      throw new Error('database down');
    });
    await expect(
      importContacts({ ...t.deps, db: failing }, subaccountId, csv(1_500, 4_000_000, 'Nothing'), mapping),
    ).rejects.toThrow('database down');
    expect(await companyCount('Nothing')).toBe(0);
  });
});
