import {
  convertToolSchema,
  type TCreateMcpServerRequest,
  type TMcpHeaderInput,
  type TMcpServer,
  type TMcpServerStatus,
  type TUpdateMcpServerRequest,
} from '@switchboard/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { decryptSecret, encryptSecret, maskTail } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { BlockedAddressError, policyOf, vetUrlResolved } from '../../platform/outbound';
import { listMcpTools, McpConnectionError, type McpTarget } from './client';
import { mcpServers, type StoredMcpTool } from './schema';

type McpServerRow = typeof mcpServers.$inferSelect;
type Header = { name: string; value: string };

const MAX_SERVERS = 50;
const NOT_FOUND = 'This MCP server does not exist';

export const headersOf = (deps: Deps, row: McpServerRow): Header[] =>
  JSON.parse(decryptSecret(deps.env, row.headersEncrypted)) as Header[];

export const targetOf = (deps: Deps, row: McpServerRow): McpTarget => ({
  url: row.url,
  headers: Object.fromEntries(headersOf(deps, row).map((header) => [header.name, header.value])),
});

/** The tools of a stored discovery in the one app-tool shape (slugs upper-cased). */
export const toolsOf = (row: McpServerRow) => row.discoveredTools.map((found) => convertToolSchema(found, 'mcp'));

/** The last four characters of a value, none of a short one (it would show most of it). */
const tailOf = (value: string) => (value.length > 8 ? maskTail(value) : '');

const view = (deps: Deps, row: McpServerRow): TMcpServer => ({
  id: row.id,
  name: row.name,
  url: row.url,
  headers: headersOf(deps, row).map((header) => ({ name: header.name, valueTail: tailOf(header.value) })),
  status: row.status,
  lastError: row.lastError,
  tools: toolsOf(row),
  discoveredAt: row.discoveredAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Refuses a private or malformed address before anything is stored (400 naming `url`). */
const vetServerUrl = async (deps: Deps, url: string) => {
  try {
    await vetUrlResolved(url, policyOf(deps.env), { field: 'url' });
  } catch (error) {
    if (error instanceof BlockedAddressError) {
      throw new AppError('VALIDATION_ERROR', error.message, { field: 'url', status: 400 });
    }
    throw error;
  }
};

interface Discovery {
  status: TMcpServerStatus;
  lastError: string | null;
  discoveredTools?: StoredMcpTool[];
  discoveredAt?: Date;
}

/** Connects and lists the tools; a failure is a state of the server, not an error of the request. */
const discover = async (deps: Deps, target: McpTarget): Promise<Discovery> => {
  try {
    const tools = await listMcpTools(deps, target);
    return { status: 'connected', lastError: null, discoveredTools: tools, discoveredAt: new Date() };
  } catch (error) {
    if (error instanceof McpConnectionError) {
      return { status: error.authRequired ? 'auth_required' : 'failed', lastError: error.message };
    }
    const message = error instanceof Error ? error.message : 'The MCP server could not be reached';
    return { status: 'failed', lastError: message.slice(0, 500) };
  }
};

const findRow = async (db: Db | Tx, subaccountId: string, serverId: string) => {
  const rows = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.id, serverId), eq(mcpServers.subaccountId, subaccountId)))
    .limit(1);
  return rows[0] ?? null;
};

export const findMcpServer = findRow;

const requireRow = async (db: Db, subaccountId: string, serverId: string) => {
  const row = await findRow(db, subaccountId, serverId);
  if (!row) throw notFound(NOT_FOUND);
  return row;
};

export const listMcpServerRows = (db: Db, subaccountId: string) =>
  db
    .select()
    .from(mcpServers)
    .where(eq(mcpServers.subaccountId, subaccountId))
    .orderBy(asc(mcpServers.createdAt))
    .limit(MAX_SERVERS);

/** Records what a tool call found out about the server: reachable again, or not (with why). */
export const setMcpServerState = async (
  db: Db | Tx,
  serverId: string,
  status: TMcpServerStatus,
  lastError: string | null,
) => {
  await db
    .update(mcpServers)
    .set({ status, lastError: lastError?.slice(0, 500) ?? null, updatedAt: new Date() })
    .where(eq(mcpServers.id, serverId));
};

/** Name and status of every MCP server of the sub-accounts (the Launch checklist). */
export const mcpServerStates = (db: Db | Tx, subaccountIds: string[]) =>
  db
    .select({ id: mcpServers.id, name: mcpServers.name, status: mcpServers.status })
    .from(mcpServers)
    .where(inArray(mcpServers.subaccountId, subaccountIds));

export const listMcpServers = async (deps: Deps, subaccountId: string) => ({
  servers: (await listMcpServerRows(deps.db, subaccountId)).map((row) => view(deps, row)),
});

const newHeaders = (headers: TMcpHeaderInput[]): Header[] =>
  headers.map((header, index) => {
    if (header.value === undefined) {
      throw new AppError('VALIDATION_ERROR', 'Enter a value', { field: `headers.${index}.value` });
    }
    return { name: header.name, value: header.value };
  });

/** Adds a server: the address is vetted, then the server is connected and its tools listed at once. */
export const createMcpServer = async (
  deps: Deps,
  tenant: { accountId: string; subaccountId: string },
  input: TCreateMcpServerRequest,
) => {
  await vetServerUrl(deps, input.url);
  const existing = await listMcpServerRows(deps.db, tenant.subaccountId);
  if (existing.length >= MAX_SERVERS) {
    throw new AppError('VALIDATION_ERROR', `At most ${MAX_SERVERS} MCP servers per sub-account`, { field: 'url' });
  }
  const headers = newHeaders(input.headers ?? []);
  const target: McpTarget = {
    url: input.url,
    headers: Object.fromEntries(headers.map((header) => [header.name, header.value])),
  };
  const found = await discover(deps, target);
  const rows = await deps.db
    .insert(mcpServers)
    .values({
      id: newId('mcpServer'),
      accountId: tenant.accountId,
      subaccountId: tenant.subaccountId,
      name: input.name,
      url: input.url,
      headersEncrypted: encryptSecret(deps.env, JSON.stringify(headers)),
      status: found.status,
      lastError: found.lastError,
      discoveredTools: found.discoveredTools ?? [],
      discoveredAt: found.discoveredAt ?? null,
    })
    .returning();
  const row = rows[0];
  if (!row) throw new AppError('DATABASE_ERROR', 'The MCP server could not be stored.');
  return view(deps, row);
};

/** Changes the name, address or headers; a new address or new headers are connected again at once. */
export const updateMcpServer = async (
  deps: Deps,
  subaccountId: string,
  serverId: string,
  input: TUpdateMcpServerRequest,
) => {
  const row = await requireRow(deps.db, subaccountId, serverId);
  if (input.url !== undefined) await vetServerUrl(deps, input.url);
  let headers = headersOf(deps, row);
  if (input.headers) {
    const stored = new Map(headers.map((header) => [header.name.toLowerCase(), header.value]));
    headers = input.headers.map((header, index) => {
      const value = header.value ?? stored.get(header.name.toLowerCase());
      if (value === undefined) {
        throw new AppError('VALIDATION_ERROR', 'Enter a value', { field: `headers.${index}.value` });
      }
      return { name: header.name, value };
    });
  }
  const url = input.url ?? row.url;
  const reconnect = input.url !== undefined || input.headers !== undefined;
  const found = reconnect
    ? await discover(deps, { url, headers: Object.fromEntries(headers.map((header) => [header.name, header.value])) })
    : null;
  const rows = await deps.db
    .update(mcpServers)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      url,
      headersEncrypted: encryptSecret(deps.env, JSON.stringify(headers)),
      ...(found ? discoveryColumns(found) : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(mcpServers.id, serverId), eq(mcpServers.subaccountId, subaccountId)))
    .returning();
  if (!rows[0]) throw notFound(NOT_FOUND);
  return view(deps, rows[0]);
};

/** The columns a discovery sets: the state always, the tools only when it found them. */
const discoveryColumns = (found: Discovery) => ({
  status: found.status,
  lastError: found.lastError,
  ...(found.discoveredTools ? { discoveredTools: found.discoveredTools } : {}),
  ...(found.discoveredAt ? { discoveredAt: found.discoveredAt } : {}),
});

/** Connects again and lists the tools; the last good list is kept when the server fails. */
export const rediscoverMcpServer = async (deps: Deps, subaccountId: string, serverId: string) => {
  const row = await requireRow(deps.db, subaccountId, serverId);
  const found = await discover(deps, targetOf(deps, row));
  const rows = await deps.db
    .update(mcpServers)
    .set({ ...discoveryColumns(found), updatedAt: new Date() })
    .where(and(eq(mcpServers.id, serverId), eq(mcpServers.subaccountId, subaccountId)))
    .returning();
  if (!rows[0]) throw notFound(NOT_FOUND);
  return view(deps, rows[0]);
};

/** Deletes a server. Agents that enabled its tools keep them; a call then fails with TOOL_EXECUTION_FAILED. */
export const deleteMcpServer = async (deps: Deps, subaccountId: string, serverId: string) => {
  const rows = await deps.db
    .delete(mcpServers)
    .where(and(eq(mcpServers.id, serverId), eq(mcpServers.subaccountId, subaccountId)))
    .returning({ id: mcpServers.id });
  if (!rows[0]) throw notFound(NOT_FOUND);
};
