import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { createOutboundFetch, type OutboundPolicy, policyOf } from '../../platform/outbound';
import type { StoredMcpTool } from './schema';

/**
 * The MCP client: the official SDK's `Client` over its Streamable HTTP transport, with a fetch
 * that goes through the outbound guard (private addresses only when PRIVATE_URL_ALLOWLIST lists
 * them, DNS vetted inside the connection, no redirects followed).
 *
 * No pool of sessions: each discovery or call opens a client (initialize), does its one request
 * and closes the transport. The outbound fetch keeps HTTP connections alive, so the cost of a new
 * MCP session is the initialize exchange, not a new TCP/TLS handshake; and no session state
 * survives that a server restart or another app process could make stale.
 */

export const DISCOVERY_TIMEOUT_MS = 15_000;
export const CALL_TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_RESULT_CHARS = 8000;

export interface McpTarget {
  url: string;
  headers: Record<string, string>;
}

/** The failure of an exchange with an MCP server; `authRequired` when it answered 401. */
export class McpConnectionError extends Error {
  constructor(
    message: string,
    readonly authRequired: boolean,
  ) {
    super(message);
    this.name = 'McpConnectionError';
  }
}

const fetches = new WeakMap<OutboundPolicy, typeof fetch>();
const mcpFetch = (deps: Deps): typeof fetch => {
  const policy = policyOf(deps.env);
  const found = fetches.get(policy);
  if (found) return found;
  const created = createOutboundFetch({ policy, field: 'url', maxResponseBytes: MAX_RESPONSE_BYTES });
  fetches.set(policy, created);
  return created;
};

/** The MCP SDK's client, loaded on first use: a server whose agents use no MCP tools never holds it. */
const loadClientSdk = async () => {
  const [{ UnauthorizedError }, { Client }, { StreamableHTTPClientTransport, StreamableHTTPError }] = await Promise.all(
    [
      import('@modelcontextprotocol/sdk/client/auth.js'),
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ],
  );
  return { UnauthorizedError, Client, StreamableHTTPClientTransport, StreamableHTTPError };
};
type ClientSdk = Awaited<ReturnType<typeof loadClientSdk>>;

const describe = (error: unknown, sdk: ClientSdk): McpConnectionError | AppError => {
  const { UnauthorizedError, StreamableHTTPError } = sdk;
  if (error instanceof AppError) return error;
  if (error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && error.code === 401)) {
    return new McpConnectionError('The MCP server refused the request (401). Check the authentication headers.', true);
  }
  if (error instanceof StreamableHTTPError && error.code && error.code > 0) {
    return new McpConnectionError(`The MCP server answered with status ${error.code}.`, false);
  }
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof AppError) return cause;
  const message = error instanceof Error ? error.message : String(error);
  return new McpConnectionError(`The MCP server could not be reached: ${message}`.slice(0, 500), false);
};

/** Opens a session, runs `work`, and always closes the transport. */
const withClient = async <T>(deps: Deps, target: McpTarget, timeout: number, work: (client: Client) => Promise<T>) => {
  const sdk = await loadClientSdk();
  const { Client, StreamableHTTPClientTransport } = sdk;
  const client = new Client({ name: 'switchboard', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: mcpFetch(deps),
    requestInit: { headers: target.headers },
  });
  try {
    await client.connect(transport, { timeout });
    return await work(client);
  } catch (error) {
    throw describe(error, sdk);
  } finally {
    await client.close().catch(() => undefined);
  }
};

/** Connects and lists every tool (following pages, at most 20). */
export const listMcpTools = (deps: Deps, target: McpTarget): Promise<StoredMcpTool[]> =>
  withClient(deps, target, DISCOVERY_TIMEOUT_MS, async (client) => {
    const tools: StoredMcpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: DISCOVERY_TIMEOUT_MS });
      for (const found of result.tools) {
        tools.push({
          name: found.name,
          ...(found.title ? { title: found.title } : {}),
          ...(found.description ? { description: found.description } : {}),
          inputSchema: found.inputSchema as Record<string, unknown>,
          ...(found.annotations ? { annotations: found.annotations as Record<string, unknown> } : {}),
        });
      }
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });

interface ContentPart {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

const clip = (text: string) => (text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS - 3)}...` : text);

const textOrJson = (text: string): unknown => {
  const clipped = clip(text);
  try {
    return JSON.parse(clipped);
  } catch {
    return clipped;
  }
};

const partForModel = (part: ContentPart): unknown => {
  if (part.type === 'text') return textOrJson(part.text ?? '');
  if (part.type === 'resource' && part.resource) {
    return part.resource.text !== undefined ? textOrJson(part.resource.text) : { resource: part.resource.uri };
  }
  if (part.type === 'resource_link') return { resource: part.uri };
  return { type: part.type, ...(part.mimeType ? { mimeType: part.mimeType } : {}) };
};

const textOf = (parts: ContentPart[]) =>
  parts
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join(' ')
    .trim();

/**
 * Calls one tool. The answer for the model is plain data: the structured content when the server
 * gives one, else the text parts (JSON parsed when they are JSON); a tool result marked `isError`
 * throws TOOL_EXECUTION_FAILED with the server's text.
 */
export const callMcpTool = (
  deps: Deps,
  target: McpTarget,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<unknown> =>
  withClient(deps, target, CALL_TIMEOUT_MS, async (client) => {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    })) as { content?: ContentPart[]; structuredContent?: unknown; isError?: boolean; toolResult?: unknown };
    const parts = Array.isArray(result.content) ? result.content : [];
    if (result.isError) {
      throw new AppError('TOOL_EXECUTION_FAILED', clip(textOf(parts) || `The MCP tool ${name} failed`));
    }
    if (result.structuredContent !== undefined) return result.structuredContent;
    if (result.toolResult !== undefined) return result.toolResult;
    const values = parts.map(partForModel);
    return values.length === 1 ? values[0] : values;
  });
