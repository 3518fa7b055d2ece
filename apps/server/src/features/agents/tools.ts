import { type TOrigin, type TToolEffect, toolNotCalled, toolRunsFor } from '@switchboard/core';
import type { ToolSet } from 'ai';
import type { Deps } from '../../platform/deps';
import { createOutboundFetch, type OutboundPolicy, policyOf } from '../../platform/outbound';
import type { AgentToolRow } from './schema';

/**
 * An agent's HTTP tools as AI SDK tools. The model sees the input schema minus the fields the user
 * fixed by hand (manual mode); those are merged back before the call. GET sends the input as query
 * values, other methods as a JSON body; `{field}` in the URL is replaced by the value.
 */

const TOOL_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_CHARS = 4000;
const MAX_RESPONSE_BYTES = 64 * 1024;

const schemaForModel = (toolRow: AgentToolRow): Record<string, unknown> => {
  const schema = toolRow.inputSchema as {
    type?: string;
    properties?: Record<string, unknown>;
    required?: string[];
  };
  const fixed = new Set(Object.keys(toolRow.fixedValues ?? {}));
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !fixed.has(name)));
  return {
    type: 'object',
    properties,
    required: (schema.required ?? []).filter((name) => !fixed.has(name)),
    additionalProperties: false,
  };
};

/** Tool calls go through the outbound guard: private targets only when PRIVATE_URL_ALLOWLIST lists them. */
const toolFetches = new WeakMap<OutboundPolicy, typeof fetch>();
const toolFetch = (deps: Deps): typeof fetch => {
  const policy = policyOf(deps.env);
  const found = toolFetches.get(policy);
  if (found) return found;
  const created = createOutboundFetch({ policy, field: 'url', maxResponseBytes: MAX_RESPONSE_BYTES });
  toolFetches.set(policy, created);
  return created;
};

export const callHttpTool = async (deps: Deps, toolRow: AgentToolRow, input: Record<string, unknown>) => {
  const values = { ...input, ...(toolRow.fixedValues ?? {}) };
  const used = new Set<string>();
  const target = toolRow.url.replace(/\{([a-zA-Z0-9_]+)\}/g, (_, name: string) => {
    used.add(name);
    return encodeURIComponent(String(values[name] ?? ''));
  });
  const url = new URL(target);
  const rest = Object.fromEntries(Object.entries(values).filter(([name]) => !used.has(name)));
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9', ...toolRow.headers };
  let body: string | undefined;
  if (toolRow.method === 'GET' || toolRow.method === 'DELETE') {
    for (const [name, value] of Object.entries(rest)) {
      if (value !== null && value !== undefined) {
        url.searchParams.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
    }
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(rest);
  }
  const response = await toolFetch(deps)(url, {
    method: toolRow.method,
    headers,
    body,
    signal: AbortSignal.timeout(TOOL_TIMEOUT_MS),
  });
  const text = (await response.text()).slice(0, MAX_RESPONSE_CHARS);
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Plain text answers are passed on as they are.
  }
  if (!response.ok) return { error: `The tool answered with status ${response.status}`, status: response.status, data };
  return data;
};

/** A GET only reads (HTTP's safe method); any other method may change something at the address. */
export const httpToolEffect = (toolRow: Pick<AgentToolRow, 'method'>): TToolEffect =>
  toolRow.method === 'GET' ? 'read' : 'write';

/** The agent's HTTP tools for a turn of this origin: a test records a writing call instead of making it. */
export const buildAgentTools = async (
  deps: Deps,
  toolRows: AgentToolRow[],
  origin: TOrigin,
): Promise<ToolSet | undefined> => {
  if (!toolRows.length) return undefined;
  const { jsonSchema, tool } = await import('ai');
  const set: ToolSet = {};
  for (const toolRow of toolRows) {
    set[toolRow.name] = tool({
      description: toolRow.description || `Calls ${toolRow.method} ${toolRow.url}`,
      inputSchema: jsonSchema<Record<string, unknown>>(schemaForModel(toolRow) as never),
      execute: async (input) => {
        if (!toolRunsFor(origin, httpToolEffect(toolRow))) {
          return toolNotCalled(toolRow.name, { ...(input ?? {}), ...(toolRow.fixedValues ?? {}) });
        }
        try {
          return await callHttpTool(deps, toolRow, input ?? {});
        } catch (error) {
          return { error: error instanceof Error ? error.message : 'The tool call failed' };
        }
      },
    });
  }
  return set;
};

/** One tool set from several; undefined when none has a tool. */
export const mergeToolSets = (...sets: (ToolSet | undefined)[]): ToolSet | undefined => {
  const present = sets.filter((set): set is ToolSet => set !== undefined);
  if (!present.length) return undefined;
  return present.length === 1 ? present[0] : Object.assign({}, ...present);
};
