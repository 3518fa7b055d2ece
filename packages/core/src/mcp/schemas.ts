import { z } from 'zod';
import { ZDiscoveredTool } from '../agents/app-tools';
import { zWebAddress } from '../http/web-address';

/**
 * MCP servers of a sub-account (Streamable HTTP): their address, the headers sent with every
 * request (authentication), and the tools discovered on them. Header values are secrets: the
 * browser only ever sees their last four characters.
 */

export const ZMcpServerStatus = z.enum(['connected', 'failed', 'auth_required']);
export type TMcpServerStatus = z.infer<typeof ZMcpServerStatus>;

/** Headers the MCP transport sets itself: a server's headers cannot replace them. */
export const MCP_RESERVED_HEADERS = [
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'transfer-encoding',
] as const;

const ZHeaderName = z
  .string()
  .trim()
  .min(1, 'Enter a header name')
  .max(100, 'Use at most 100 characters')
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'Use letters, digits and - in header names')
  .refine(
    (name) => !(MCP_RESERVED_HEADERS as readonly string[]).includes(name.toLowerCase()),
    'This header is set by the connection itself',
  );

const ZHeaderValue = z.string().max(4000, 'Use at most 4,000 characters');

export const ZMcpHeaderInput = z.object({
  name: ZHeaderName,
  /** The value; left out when editing keeps the value stored under this name. */
  value: ZHeaderValue.optional(),
});
export type TMcpHeaderInput = z.infer<typeof ZMcpHeaderInput>;

const ZHeaders = z
  .array(ZMcpHeaderInput)
  .max(20, 'At most 20 headers')
  .refine(
    (headers) => new Set(headers.map((header) => header.name.toLowerCase())).size === headers.length,
    'Each header can be given once',
  );

const ZServerName = z.string().trim().min(1, 'Enter a name').max(120, 'Use at most 120 characters');

export const ZCreateMcpServerRequest = z.object({
  name: ZServerName,
  url: zWebAddress(2048),
  headers: ZHeaders.default([]),
});
export type TCreateMcpServerRequest = z.input<typeof ZCreateMcpServerRequest>;

export const ZUpdateMcpServerRequest = z
  .object({
    name: ZServerName.optional(),
    url: zWebAddress(2048).optional(),
    /** The full list of headers after the edit; a header without a value keeps its stored value. */
    headers: ZHeaders.optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), 'Nothing to change');
export type TUpdateMcpServerRequest = z.input<typeof ZUpdateMcpServerRequest>;

/** A header as the browser sees it: the name and the last four characters of the value. */
export const ZMcpHeaderView = z.object({ name: z.string(), valueTail: z.string() });

export const ZMcpServer = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  headers: z.array(ZMcpHeaderView),
  status: ZMcpServerStatus,
  /** Why the last connection failed (status failed or auth_required), else null. */
  lastError: z.string().nullable(),
  /** The tools the server listed at the last discovery, converted like every app tool. */
  tools: z.array(ZDiscoveredTool),
  discoveredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TMcpServer = z.infer<typeof ZMcpServer>;

export const ZMcpServerList = z.object({ servers: z.array(ZMcpServer) });
export type TMcpServerList = z.infer<typeof ZMcpServerList>;

/** The input of an agent as an MCP tool on Switchboard's own `/mcp` endpoint. */
export const MCP_AGENT_TOOL_INPUT_DESCRIPTION = {
  message: 'The message to send to the agent',
  threadId: 'Continue an earlier conversation: the threadId of a previous answer',
} as const;

/** The name of an agent as an MCP tool: lower case letters, digits, _ and -, at most 64. */
export const mcpToolNameOf = (agentName: string): string =>
  agentName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, 60) || 'agent';
