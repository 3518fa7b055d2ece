import { z } from 'zod';
import { type FieldSchema, validateFieldValue } from './dynamic-form';

/**
 * App tools: actions of a connected app (Composio) or of an MCP server that an agent may call.
 * Each source discovers its tools and converts them to one shape; an agent keeps the ones it
 * enables (with a copy of the schema, so a chat turn reads nothing else).
 */

export const ZAppToolSource = z.enum(['composio', 'mcp']);
export type TAppToolSource = z.infer<typeof ZAppToolSource>;

/** A discovered tool (spec evaluation.md section 3, tool schema conversion). */
export const ZDiscoveredTool = z.object({
  slug: z.string(),
  schema: z.object({
    type: z.literal('object'),
    properties: z.record(z.string(), z.unknown()),
    required: z.array(z.string()),
    description: z.string(),
    title: z.string(),
  }),
  raw: z.unknown(),
  version: z.string().nullable(),
  source: ZAppToolSource,
});
export type TDiscoveredTool = z.infer<typeof ZDiscoveredTool>;

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A tool's title as people read it: the catalogue's title or display name, else its slug in words
 * (without the app's prefix when the record names the app). The input schema's own title names a
 * request type ("CreateEventRequest"), so it is used only when there is nothing else.
 */
const toolTitle = (record: Record<string, unknown>, parameters: Record<string, unknown>): string => {
  const named = asText(record.title) || asText(record.name);
  if (named) return named;
  const slug = asText(record.slug).toLowerCase();
  const app = asText(asRecord(record.toolkit).slug || record.toolkit || record.app || record.appName).toLowerCase();
  const words = (app && slug.startsWith(`${app}_`) ? slug.slice(app.length + 1) : slug).replace(/[_-]+/g, ' ').trim();
  if (words) return words.charAt(0).toUpperCase() + words.slice(1);
  return asText(parameters.title);
};

/**
 * Converts a tool as an app catalogue describes it: reads `schema` or `input_parameters` and
 * yields the slug upper-cased, an object schema (properties, required, description, title), the raw
 * record, the version from `schema_version` or `version`, and the source.
 */
export const convertToolSchema = (raw: unknown, source: TAppToolSource = 'composio'): TDiscoveredTool => {
  const record = asRecord(raw);
  const parameters = asRecord(record.schema ?? record.input_parameters ?? record.inputSchema);
  const properties = asRecord(parameters.properties);
  const required = Array.isArray(parameters.required)
    ? parameters.required.filter((name): name is string => typeof name === 'string' && name in properties)
    : [];
  const version = record.schema_version ?? record.version;
  return {
    slug: asText(record.slug ?? record.name).toUpperCase(),
    schema: {
      type: 'object',
      properties,
      required,
      description: asText(parameters.description) || asText(record.description),
      title: toolTitle(record, parameters),
    },
    raw,
    version: version === undefined || version === null ? null : String(version),
    source,
  };
};

/** The state of an app connection or MCP server, as its badge shows it. */
export const ZAppToolOwnerStatus = z.enum(['connected', 'pending_connection', 'failed', 'auth_required']);
export type TAppToolOwnerStatus = z.infer<typeof ZAppToolOwnerStatus>;

/** The tools one connection or MCP server offers an agent of the sub-account. */
export const ZAppToolGroup = z.object({
  source: ZAppToolSource,
  ownerId: z.string(),
  ownerName: z.string(),
  status: ZAppToolOwnerStatus,
  /** True for the sandbox catalogue (no COMPOSIO_API_KEY): shown with a Sandbox label. */
  sandbox: z.boolean(),
  tools: z.array(ZDiscoveredTool),
});
export type TAppToolGroup = z.infer<typeof ZAppToolGroup>;

/** Names a model can call: letters, digits, _ and -, at most 64. */
export const modelToolName = (slug: string): string =>
  slug
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 64) || 'TOOL';

export interface ToolArgumentError {
  field: string;
  message: string;
}

/**
 * Checks a tool call's arguments against the tool's schema before the call: required fields
 * present, each value of the right kind and within its bounds. Returns the first bad field.
 */
export const validateToolArguments = (
  schema: { properties?: Record<string, unknown>; required?: string[] },
  args: Record<string, unknown>,
): ToolArgumentError | null => {
  const properties = (schema.properties ?? {}) as Record<string, FieldSchema>;
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null || args[name] === '') {
      return { field: name, message: `${name} is required` };
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const fieldSchema = properties[name];
    if (!fieldSchema) continue;
    const message = validateFieldValue(name, fieldSchema, value);
    if (message) return { field: name, message };
  }
  return null;
};
