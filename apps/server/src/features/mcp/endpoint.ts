import { MCP_AGENT_TOOL_INPUT_DESCRIPTION, mcpToolNameOf } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { fromCurrentSubaccount, subaccountAccess, type Tenant, tenantOf } from '../../platform/guard';
import { apiLimit } from '../../platform/request-limits';
import { streamSlot } from '../../platform/stream-slots';
import { listAgents } from '../agents/repo';
import { replyAsAgent } from '../conversations/reply';

/**
 * Switchboard as an MCP server: `POST /mcp` (Streamable HTTP, stateless, JSON answers) with a
 * platform API key (`Authorization: Bearer sk_sb_…`). Each agent of the key's sub-account is one
 * tool, `{ message, threadId? }` in, the agent's answer out; the call goes through the same reply
 * path as every channel (stored as a conversation on the 'api' channel, credits charged the same
 * way). Without a key, or with a bad one, the answer is 401.
 */

const tags = ['mcp'];

const AGENT_TOOL_INPUT = {
  message: z.string().trim().min(1).max(8000).describe(MCP_AGENT_TOOL_INPUT_DESCRIPTION.message),
  threadId: z.string().max(64).optional().describe(MCP_AGENT_TOOL_INPUT_DESCRIPTION.threadId),
};
const AGENT_TOOL_OUTPUT = { answer: z.string(), threadId: z.string() };

/** Unique tool names for the agents: the name made safe, then _2, _3 … for repeats. */
export const agentToolNames = (agents: { id: string; name: string }[]) => {
  const used = new Set<string>();
  return agents.map((agent) => {
    const base = mcpToolNameOf(agent.name);
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}_${n}`;
    used.add(name);
    return { agent, name };
  });
};

/** The MCP SDK's server side, loaded on the first call of `/mcp` (most servers never serve one). */
const loadServerSdk = async () => {
  const [{ McpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { McpServer, StreamableHTTPServerTransport };
};

const buildServer = async (deps: Deps, tenant: Tenant) => {
  const { McpServer } = await loadServerSdk();
  const server = new McpServer({ name: 'switchboard', version: '1.0.0' }, { capabilities: { tools: {} } });
  const { items } = await listAgents(deps.db, tenant.subaccountId, 1, 100);
  for (const { agent, name } of agentToolNames(items)) {
    server.registerTool(
      name,
      {
        title: agent.name,
        description: `Ask the Switchboard agent "${agent.name}". Answers with its reply and the threadId to continue the conversation.`,
        inputSchema: AGENT_TOOL_INPUT,
        outputSchema: AGENT_TOOL_OUTPUT,
      },
      async ({ message, threadId }, extra) => {
        try {
          const result = await replyAsAgent(deps, {
            agentId: agent.id,
            accountId: tenant.accountId,
            subaccountId: tenant.subaccountId,
            threadId: threadId ?? null,
            message,
            channel: 'api',
            signal: extra.signal,
          });
          return {
            content: [{ type: 'text' as const, text: result.message }],
            structuredContent: { answer: result.message, threadId: result.threadId },
          };
        } catch (error) {
          const text = error instanceof AppError ? `${error.code}: ${error.message}` : 'The agent could not answer';
          return { content: [{ type: 'text' as const, text }], isError: true };
        }
      },
    );
  }
  return server;
};

const notAllowed = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send requests with POST' },
  id: null,
};

export const mcpEndpointRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const access = { ...subaccountAccess('member', fromCurrentSubaccount()), ...apiLimit(deps.env) };

  // Each call holds a stream slot while the agent answers.
  app.post('/mcp', { config: { ...access, ...streamSlot() }, schema: { tags } }, async (request, reply) => {
    if (!request.caller?.apiKeySubaccountId) {
      throw new AppError('UNAUTHORIZED', 'Send a platform API key: Authorization: Bearer sk_sb_…');
    }
    const server = await buildServer(deps, tenantOf(request));
    const { StreamableHTTPServerTransport } = await loadServerSdk();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: access,
      schema: { tags },
      handler: async (_request, reply) => reply.status(405).header('allow', 'POST').send(notAllowed),
    });
  }
};
