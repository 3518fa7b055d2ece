import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { readBody } from './read-body';

/**
 * A real MCP server for tests: the SDK's own McpServer and StreamableHTTPServerTransport
 * (stateless) on a local socket. Tools: get_weather {city} (annotated read-only) and always_fails;
 * with `writingTool`, also create_ticket {subject} (annotated as writing). With `token`, every
 * request without `Authorization: Bearer <token>` is answered 401.
 */
export interface McpStub {
  url: string;
  /** The tool calls the server received, in order. */
  calls: { name: string; args: Record<string, unknown> }[];
  close(): Promise<void>;
}

const buildServer = (calls: McpStub['calls'], writingTool: boolean) => {
  const server = new McpServer({ name: 'weather-stub', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    {
      description: 'Current weather of a city',
      inputSchema: { city: z.string().min(1).describe('The city') },
      annotations: { readOnlyHint: true },
    },
    async ({ city }) => {
      calls.push({ name: 'get_weather', args: { city } });
      return { content: [{ type: 'text', text: JSON.stringify({ city, forecast: 'Sunny', celsius: 21 }) }] };
    },
  );
  server.registerTool('always_fails', { description: 'A tool that always fails' }, async () => {
    calls.push({ name: 'always_fails', args: {} });
    return { content: [{ type: 'text', text: 'The upstream weather service is down' }], isError: true };
  });
  if (writingTool) {
    server.registerTool(
      'create_ticket',
      {
        description: 'Opens a support ticket about the weather',
        inputSchema: { subject: z.string().min(1).describe('What the ticket is about') },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      async ({ subject }) => {
        calls.push({ name: 'create_ticket', args: { subject } });
        return { content: [{ type: 'text', text: JSON.stringify({ ticket: 'T-1', subject }) }] };
      },
    );
  }
  return server;
};

const parse = async (request: IncomingMessage) => {
  const text = await readBody(request);
  return text ? JSON.parse(text) : undefined;
};

export const startMcpStub = async (options: { token?: string; writingTool?: boolean } = {}): Promise<McpStub> => {
  const calls: McpStub['calls'] = [];
  const http: Server = createServer(async (request, response) => {
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = buildServer(calls, Boolean(options.writingTool));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, await parse(request));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
};
