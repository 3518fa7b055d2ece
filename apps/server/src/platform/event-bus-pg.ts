import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Client, Notification } from 'pg';
import type { EventBus } from './event-bus';
import { newKey } from './ids';

export interface PostgresBusOptions {
  /** postgres:// URL of the database every process shares. */
  url: string;
  /** The NOTIFY channel every process of one installation listens on (lower-case letters, digits, `_`). */
  channel?: string;
}

export interface PostgresBus extends EventBus {
  /** Whether the LISTEN connection is up; while it is down, events reach this process only. */
  listening(): boolean;
}

/**
 * PostgreSQL LISTEN/NOTIFY fan-out, for several processes on one database without Redis. An event
 * reaches this process's own subscribers at once (as with the in-process bus) and every other
 * process through one connection per process, which listens on one channel, publishes and reads
 * stored events; a process ignores its own echo and events of channels it has no subscriber on.
 * An event too large for a NOTIFY payload is stored in `bus_payloads` and its notification names
 * the row. A dropped connection is opened again with backoff; until then events stay in process.
 */
export const createPostgresBus = async ({
  url,
  channel = 'switchboard_bus',
}: PostgresBusOptions): Promise<PostgresBus> => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid event bus channel "${channel}"`);
  const { default: pg } = await import('pg');
  const origin = randomUUID();
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const ignore = () => undefined;
  let client: Client | null = null;
  let dropClient: (() => void) | null = null;
  let opening: Promise<void> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  // A notification is `<origin>.<sequence>\n<channel>\n<JSON>`, or `#<id>` of a stored event in
  // place of the JSON. The sequence keeps equal events of one transaction apart (NOTIFY would
  // deliver one of them).
  const emit = (name: string, json: string) => {
    try {
      local.emit(name, json === '' ? undefined : JSON.parse(json));
    } catch {
      // A malformed message from another process is dropped, as is a subscriber's error.
    }
  };
  // One statement at a time on the connection, in the order they were asked for: a publish of
  // the next turn of the event loop, the read of a stored event and the pruning wait for the one
  // running (pg queues a query sent while another runs, but its next major version refuses it).
  let statements: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(statement: () => Promise<T>): Promise<T> => {
    const result = statements.then(statement, statement);
    statements = result.catch(ignore);
    return result;
  };
  const readStored = async (id: string) => {
    const current = client;
    if (!current) return undefined;
    const result = await inTurn(() => current.query<{ payload: string }>(READ_SQL, [id]));
    return result.rows[0]?.payload;
  };
  // While a stored event is being read, the events behind it wait, so they arrive in order.
  let backlog = Promise.resolve();
  let waiting = 0;
  const receive = (message: Notification) => {
    const text = message.payload ?? '';
    const first = text.indexOf('\n');
    const second = text.indexOf('\n', first + 1);
    if (first < 0 || second < 0 || text.startsWith(origin)) return;
    const name = text.slice(first + 1, second);
    if (local.listenerCount(name) === 0) return;
    const body = text.slice(second + 1);
    if (!body.startsWith('#') && waiting === 0) return emit(name, body);
    waiting += 1;
    backlog = backlog.then(async () => {
      const json = body.startsWith('#') ? await readStored(body.slice(1)).catch(ignore) : body;
      waiting -= 1;
      if (json !== undefined) emit(name, json);
    });
  };

  const reconnect = () => {
    if (closed || retry) return;
    failures += 1;
    retry = setTimeout(
      () => {
        retry = undefined;
        opening = connect();
      },
      Math.min(100 * 2 ** failures, MAX_BACKOFF_MS),
    );
    retry.unref();
  };
  const connect = async () => {
    const next = new pg.Client({
      connectionString: url,
      application_name: APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    let gone = false;
    const drop = () => {
      if (gone) return;
      gone = true;
      if (client === next) {
        client = null;
        dropClient = null;
      }
      next.end().catch(ignore);
      reconnect();
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', receive);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      drop();
      return;
    }
    if (gone) return;
    if (closed) {
      gone = true;
      await next.end().catch(ignore);
      return;
    }
    client = next;
    dropClient = drop;
    failures = 0;
  };

  // The events of one turn of the event loop go in one statement, each notified in order.
  let outgoing: string[] = [];
  let sent: Promise<void> | null = null;
  let sequence = 0;
  let prunedAt = 0;
  const send = async () => {
    const events = outgoing;
    outgoing = [];
    sent = null;
    const current = client;
    if (events.length === 0 || !current) return;
    const notes: string[] = [];
    const ids: string[] = [];
    const stored: string[] = [];
    for (let i = 0; i < events.length; i += 2) {
      const header = events[i] as string;
      const json = events[i + 1] as string;
      const note = header + json;
      if (note.length * 3 < NOTIFY_LIMIT || Buffer.byteLength(note) < NOTIFY_LIMIT) notes.push(note);
      else {
        const id = newKey(16);
        ids.push(id);
        stored.push(json);
        notes.push(`${header}#${id}`);
      }
    }
    try {
      if (ids.length === 0) await inTurn(() => current.query(NOTIFY_SQL, [channel, notes]));
      else {
        await inTurn(() => current.query(STORE_AND_NOTIFY_SQL, [channel, notes, ids, stored]));
        if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          inTurn(() => current.query(PRUNE_SQL)).catch(ignore);
        }
      }
    } catch (error) {
      // The events reach this process only; a connection that stopped answering is opened anew.
      if (error instanceof Error && error.message === 'Query read timeout' && client === current) dropClient?.();
    }
  };

  opening = connect();
  await opening;
  return {
    publish: async (name, payload) => {
      local.emit(name, payload);
      if (!client) return;
      sequence += 1;
      outgoing.push(`${origin}.${sequence.toString(36)}\n${name}\n`, JSON.stringify(payload) ?? '');
      if (outgoing.length >= MAX_EVENTS_PER_CALL * 2) return send();
      sent ??= new Promise<void>((resolve) => setImmediate(() => resolve(send())));
      await sent;
    },
    subscribe: (name, handler) => {
      local.on(name, handler);
      return () => local.off(name, handler);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      local.removeAllListeners();
      await opening;
      const current = client;
      client = null;
      await current?.end().catch(ignore);
    },
    listening: () => client !== null,
  };
};

/** NOTIFY refuses a payload of this many bytes or more (PostgreSQL's default build). */
const NOTIFY_LIMIT = 8000;
/** Events published by one statement at most (a busier turn of the event loop makes several). */
const MAX_EVENTS_PER_CALL = 500;
const MAX_BACKOFF_MS = 5000;
const CONNECT_TIMEOUT_MS = 5000;
const QUERY_TIMEOUT_MS = 5000;
/** How often a process that stores events deletes the stored events of more than 5 minutes ago. */
const PRUNE_EVERY_MS = 60_000;
/** The name the listening connection shows in pg_stat_activity. */
export const APPLICATION_NAME = 'switchboard-bus';

const NOTIFY_SQL = 'select pg_notify($1, note) from unnest($2::text[]) as note';
const STORE_AND_NOTIFY_SQL = `with stored as (insert into bus_payloads (id, payload) select * from unnest($3::text[], $4::text[]))
select pg_notify($1, note) from unnest($2::text[]) as note`;
const READ_SQL = 'select payload from bus_payloads where id = $1';
const PRUNE_SQL = `delete from bus_payloads where created_at < now() - interval '5 minutes'`;
