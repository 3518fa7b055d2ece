import { type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/** One column's values as a single array parameter, for unnest(). */
export const arrayParam = <T>(rows: readonly T[], value: (row: T) => unknown) => sql.param(rows.map(value));

/** A column of a bulk insert: its SQL type and how to read its value from a row (Dates as ISO text). */
export type BulkColumn<T> = readonly [sqlType: string, value: (row: T) => string | number | boolean | null];

/** unnest() of one array parameter per column: a set of rows, for any number of them, with a fixed text. */
export const unnestRows = <T>(columns: Record<string, BulkColumn<T>>, rows: readonly T[]): SQL =>
  sql`unnest(${sql.join(
    Object.values(columns).map(([type, value]) => sql`${arrayParam(rows, value)}::${sql.raw(type)}[]`),
    sql`, `,
  )})`;

/**
 * VALUES of exactly `count` rows, one parameter per value cast to its column's type; its
 * parameters are `valuesParams(columns, rows)`. For the few-row writes that run most often:
 * PostgreSQL binds scalar parameters faster than it parses array literals and unnests them.
 */
export const valuesRows = <T>(columns: Record<string, BulkColumn<T>>, count: number): SQL => {
  const row = () =>
    sql`(${sql.join(
      Object.values(columns).map(([type]) => sql`${sql.param(null)}::${sql.raw(type)}`),
      sql`, `,
    )})`;
  return sql`VALUES ${sql.join(Array.from({ length: count }, row), sql`, `)}`;
};

/** The parameters of `valuesRows` for these rows, in its order. */
export const valuesParams = <T>(columns: Record<string, BulkColumn<T>>, rows: readonly T[]): unknown[] =>
  rows.flatMap((row) => Object.values(columns).map(([, value]) => value(row)));

const columnNames = (columns: Record<string, unknown>) =>
  sql.raw(
    Object.keys(columns)
      .map((name) => `"${name}"`)
      .join(', '),
  );

/**
 * INSERT ... SELECT FROM unnest(...) of many rows with one array parameter per column. The
 * statement's text, and the cost of building it, stay the same for any number of rows (none
 * included, which inserts nothing), where a multi-row VALUES list grows with every value. Usable
 * on its own or as a part of a larger statement (a WITH clause). `columns` maps SQL column names to
 * their columns.
 */
export const insertRows = <T>(table: PgTable, columns: Record<string, BulkColumn<T>>, rows: readonly T[]): SQL =>
  sql`INSERT INTO ${table} (${columnNames(columns)}) SELECT * FROM ${unnestRows(columns, rows)}`;

/** INSERT ... VALUES of exactly `count` rows (see valuesRows); its parameters are `valuesParams(columns, rows)`. */
export const insertValues = <T>(table: PgTable, columns: Record<string, BulkColumn<T>>, count: number): SQL =>
  sql`INSERT INTO ${table} (${columnNames(columns)}) ${valuesRows(columns, count)}`;

/** Runs `insertRows` (nothing for no rows). Used by the group-committed writes (metering). */
export const bulkInsert = async <T>(
  db: Db | Tx,
  table: PgTable,
  columns: Record<string, BulkColumn<T>>,
  rows: readonly T[],
): Promise<void> => {
  if (rows.length === 0) return;
  await db.execute(insertRows(table, columns, rows));
};

const dialect = new PgDialect();

/**
 * A statement whose text never changes (array parameters, or a fixed number of rows): drizzle
 * builds and renders it once, and each run sends only new parameters to the database's own driver.
 * Building a statement of this size with drizzle costs more than the database spends running it,
 * on every chat message.
 */
export class FixedStatement<P extends unknown[]> {
  private text: string | null = null;

  /** `build` is called once, with empty arrays or null values, for the text; `params` yields each run's values in the same order. */
  constructor(
    private readonly build: () => SQL,
    readonly params: (...input: P) => unknown[],
  ) {}

  async run(db: Db, ...input: P): Promise<void> {
    this.text ??= dialect.sqlToQuery(this.build()).sql;
    const client = (db as unknown as { $client: { query(text: string, params: unknown[]): Promise<unknown> } }).$client;
    await client.query(this.text, this.params(...input));
  }
}

/** The parameters `insertRows` passes for these rows, in its order. */
export const insertParams = <T>(columns: Record<string, BulkColumn<T>>, rows: readonly T[]): unknown[] =>
  Object.values(columns).map(([, value]) => rows.map(value));
