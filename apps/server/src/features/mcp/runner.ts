import { appToolReadsOnly } from '@switchboard/core';
import { AppError } from '../../platform/errors';
import { registerAppToolRunner } from '../agents/app-tools';
import { callMcpTool, McpConnectionError } from './client';
import type { StoredMcpTool } from './schema';
import { findMcpServer, listMcpServerRows, mcpServerStates, setMcpServerState, targetOf, toolsOf } from './service';

/**
 * The 'mcp' app-tool runner: a sub-account's MCP servers are groups of tools (from the cached
 * discovery, so the agent page never waits for a server), and an enabled tool is called on its
 * server by its original name (the enabled slug is the upper-cased name).
 */
export const registerMcpToolRunner = () =>
  registerAppToolRunner('mcp', {
    async discover(deps, subaccountId) {
      const rows = await listMcpServerRows(deps.db, subaccountId);
      return rows.map((row) => ({
        source: 'mcp' as const,
        ownerId: row.id,
        ownerName: row.name,
        status: row.status,
        sandbox: false,
        tools: toolsOf(row),
      }));
    },

    async statuses(db, subaccountIds) {
      const rows = await mcpServerStates(db, subaccountIds);
      return new Map(rows.map((row) => [row.id, { name: row.name, status: row.status, sandbox: false }]));
    },

    async owns(db, subaccountId, ownerId) {
      return Boolean(await findMcpServer(db, subaccountId, ownerId));
    },

    /** The server's annotations of the tool: read-only only with `readOnlyHint: true`. */
    async effect(deps, call) {
      const row = await findMcpServer(deps.db, call.subaccountId, call.tool.ownerId);
      const found = row ? discoveredTool(row.discoveredTools, call.tool.slug) : undefined;
      return found && appToolReadsOnly(found) ? 'read' : 'write';
    },

    async run(deps, call) {
      const row = await findMcpServer(deps.db, call.subaccountId, call.tool.ownerId);
      if (!row) throw new AppError('TOOL_EXECUTION_FAILED', 'The MCP server of this tool was removed');
      const found = discoveredTool(row.discoveredTools, call.tool.slug);
      const name = found?.name ?? call.tool.slug;
      // A call is also a check of the server: one that cannot be reached no longer shows "Connected",
      // and one that answers again does.
      try {
        const result = await callMcpTool(deps, targetOf(deps, row), name, call.input, call.signal);
        if (row.status !== 'connected') await setMcpServerState(deps.db, row.id, 'connected', null);
        return result;
      } catch (error) {
        if (error instanceof McpConnectionError) {
          if (!call.signal?.aborted) {
            await setMcpServerState(deps.db, row.id, error.authRequired ? 'auth_required' : 'failed', error.message);
          }
          throw new AppError('TOOL_EXECUTION_FAILED', error.message);
        }
        throw error;
      }
    },
  });

/** The discovered tool of an enabled slug (the slug is the upper-cased name). */
const discoveredTool = (tools: StoredMcpTool[], slug: string) =>
  tools.find((candidate) => candidate.name === slug) ??
  tools.find((candidate) => candidate.name.toUpperCase() === slug.toUpperCase());
