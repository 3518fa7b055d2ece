import { setImmediate as nextTurn } from 'node:timers/promises';
import { type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';

/**
 * PGlite with each parameterised query sent to PostgreSQL in one call instead of six, as a
 * prepared statement.
 *
 * PGlite's own `query` runs the extended protocol one message at a time (Parse, Describe, Bind,
 * Describe, Execute, Sync), each a separate call into WebAssembly, so that it can learn the
 * parameter types before converting the values, and PostgreSQL parses and plans the statement
 * every time. Here the values are converted the way node-postgres converts them (text, with
 * PostgreSQL inferring the types: the same as the PostgreSQL path of this server), so all messages
 * go in one call; and each statement text is prepared once under a name and then only bound and
 * executed (the most recent STATEMENT_CACHE_SIZE texts are kept; PostgreSQL re-plans a prepared
 * statement by itself when a table it uses changes). The result is PGlite's own `Results`, read by PGlite's
 * own parser; the per-query copy of the whole parser table PGlite makes when a caller adds parsers
 * (drizzle does, on every query) is replaced by a lookup that falls back to the table.
 *
 * Queries keep PGlite's ordering rules: outside a transaction a query waits for any running
 * transaction and for the query before it; inside, it runs in the transaction's turn.
 */

const { serialize } = protocol;
const { prepareValue } = pgUtils;

/** Parsers of a query: the caller's own, falling back to the PGlite instance's table. */
const parsersFor = (client: PGlite, options?: QueryOptions) => {
  if (!options?.parsers) return client.parsers;
  return Object.assign(Object.create(client.parsers), options.parsers) as typeof client.parsers;
};

const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
};

const STATEMENT_CACHE_SIZE = 300;

/** Prepared statement names by statement text (and parameter types), per PGlite instance, least recently used first. */
const statementCaches = new WeakMap<PGlite, { names: Map<string, string>; next: number; closing: string[] }>();

const annotate = (error: unknown, text: string, params: unknown[], options?: QueryOptions) => {
  if (error instanceof Error) Object.assign(error, { query: text, params, queryOptions: options });
  return error;
};

/** The statement's prepared name, preparing it first if needed (runs in the query's turn). */
const preparedName = async (client: PGlite, text: string, params: unknown[], options?: QueryOptions) => {
  let cache = statementCaches.get(client);
  if (!cache) {
    cache = { names: new Map(), next: 0, closing: [] };
    statementCaches.set(client, cache);
  }
  // A text prepared with other parameter types is another statement.
  const key = options?.paramTypes?.length ? `${text}\u0000${options.paramTypes.join(',')}` : text;
  const known = cache.names.get(key);
  if (known) {
    cache.names.delete(key);
    cache.names.set(key, known);
    return known;
  }
  cache.next += 1;
  const name = `sb_${cache.next}`;
  const parts = [
    ...cache.closing.map((old) => serialize.close({ type: 'S', name: old })),
    serialize.parse({ name, text, types: options?.paramTypes }),
    serialize.sync(),
  ];
  cache.closing = [];
  try {
    await client.execProtocolStream(join(parts), { syncToFs: false });
  } catch (error) {
    throw annotate(error, text, params, options);
  }
  cache.names.set(key, name);
  if (cache.names.size > STATEMENT_CACHE_SIZE) {
    const [oldestKey, oldestName] = cache.names.entries().next().value as [string, string];
    cache.names.delete(oldestKey);
    cache.closing.push(oldestName);
  }
  return name;
};

const runPipelined = async <T>(
  client: PGlite,
  text: string,
  params: unknown[] = [],
  options?: QueryOptions,
): Promise<Results<T>> => {
  const values = params.map((value) => (value === undefined || value === null ? null : prepareValue(value)));
  const statement = await preparedName(client, text, params, options);
  const message = join([
    serialize.bind({ statement, values: values as (string | null)[] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
  try {
    messages = await client.execProtocolStream(message, { syncToFs: false });
  } catch (error) {
    throw annotate(error, text, params, options);
  }
  const { parsers: _parsers, ...rest } = options ?? {};
  const [result] = parse.parseResults(messages, parsersFor(client, options), rest);
  return result as Results<T>;
};

/**
 * Wraps a transaction so its queries are pipelined too. Each of its statements first lets the
 * event loop take a turn: PGlite runs a statement synchronously and answers with a promise already
 * settled, so without it a whole transaction (metering's: the lock, the usage logs, the debit, the
 * commit) would run in one block, during which no request moves. With it, requests that need no
 * database meanwhile (most of a chat turn waits for the model) go on between its statements.
 * Once a query outside the transaction is waiting for it (a chat turn's message write), the rest
 * of the transaction runs without those turns: the waiting query can only run after the commit,
 * and every turn given away stretched its wait (at a chat's pace, a message write behind
 * metering's transaction waited 20 ms in the slowest tenth, 12 to 14 ms without the turns).
 */
const pipelinedTransaction = (client: PGlite, tx: Transaction, othersWaiting: () => boolean): Transaction =>
  Object.create(tx, {
    query: {
      value: async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (!othersWaiting()) await nextTurn();
        if (tx.closed) throw new Error('Transaction is closed');
        return client._runExclusiveQuery(() => runPipelined<T>(client, text, params, options));
      },
    },
  });

/** The PGlite instance with `query` (also within transactions) pipelined; everything else is PGlite's own. */
export const withPipelinedQueries = (client: PGlite): PGlite => {
  /** Queries outside a transaction waiting for their turn (PGlite's lock hands every one its turn). */
  let waiting = 0;
  const query = <T>(text: string, params?: unknown[], options?: QueryOptions) => {
    waiting += 1;
    return client._runExclusiveTransaction(() => {
      waiting -= 1;
      return client._runExclusiveQuery(async () => {
        const result = await runPipelined<T>(client, text, params, options);
        await client.syncToFs();
        return result;
      });
    });
  };
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    client.transaction((tx) => callback(pipelinedTransaction(client, tx, () => waiting > 0)));
  // PGlite keeps its state in private fields: every other member is read from, and bound to, the instance.
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction') return transaction;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};
