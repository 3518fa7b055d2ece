import { z } from 'zod';
import { ZProviderId } from '../llm/schemas';
import { ZAppToolSource } from './app-tools';

/** Defaults of an agent's model settings (spec/evaluation.md 3, evaluation settings defaults). */
export const AGENT_DEFAULTS = {
  type: 'chat_completion',
  provider: 'offline',
  model: 'offline',
  temperature: 1,
  maxTokens: 2048,
  topP: 1,
  frequencyPenalty: 0,
  presencePenalty: 0,
  stopSequences: [] as string[],
  responseFormat: 'text',
} as const;

export const AGENT_TYPE_LABELS = { chat_completion: 'Chat completion', assistants: 'Assistants' } as const;

export const ZAgentType = z.enum(['chat_completion', 'assistants']);
export const ZToolMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A JSON schema object for a tool's input: an object with typed properties. */
export const ZToolInputSchema = z
  .object({
    type: z.literal('object', { error: 'The input schema must be of type object' }),
    properties: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Use letters, digits and _ in field names'),
        z.record(z.string(), z.unknown()),
      )
      .default({}),
    required: z.array(z.string()).default([]),
    description: z.string().max(2000).optional(),
  })
  .loose();
export type TToolInputSchema = z.infer<typeof ZToolInputSchema>;

/** An app's or MCP server's input schema: field names as the app gives them (also - and .). */
export const ZAppToolInputSchema = ZToolInputSchema.extend({
  properties: z
    .record(
      z.string().regex(/^[A-Za-z0-9_$][A-Za-z0-9_.$-]{0,127}$/, 'Use letters, digits, _, - and . in field names'),
      z.record(z.string(), z.unknown()),
    )
    .default({}),
});

export const ZAgentTool = z.object({
  id: z.string().max(64).optional(),
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'Start with a letter; use letters, digits, _ and - (at most 64)'),
  description: z.string().trim().max(1000).default(''),
  method: ZToolMethod.default('POST'),
  url: z
    .url({ error: 'Enter a full URL starting with http:// or https://' })
    .max(2000)
    .refine((value) => /^https?:\/\//i.test(value), 'Enter a full URL starting with http:// or https://'),
  headers: z.record(z.string().max(200), z.string().max(2000)).default({}),
  inputSchema: ZToolInputSchema.default({ type: 'object', properties: {}, required: [] }),
  fixedValues: z.record(z.string(), z.unknown()).default({}),
});
export type TAgentTool = z.infer<typeof ZAgentTool>;
export type TAgentToolInput = z.input<typeof ZAgentTool>;

/** An app tool an agent has enabled (the spec's enabledTools), with the fields fixed by hand. */
export const ZEnabledTool = z.object({
  source: ZAppToolSource,
  /** The connection (Composio) or MCP server the tool belongs to. */
  ownerId: z.string().min(1).max(64),
  /** The tool's slug in its source; the model calls it by `modelToolName(slug)`. */
  slug: z.string().trim().min(1).max(128),
  description: z.string().max(2000).default(''),
  inputSchema: ZAppToolInputSchema.default({ type: 'object', properties: {}, required: [] }),
  version: z.string().max(64).nullable().default(null),
  fixedValues: z.record(z.string(), z.unknown()).default({}),
});
export type TEnabledTool = z.infer<typeof ZEnabledTool>;
export type TEnabledToolInput = z.input<typeof ZEnabledTool>;

/**
 * A sampling setting, kept to 4 decimals: the database stores it as a 4-byte float, which cannot
 * hold a value as tiny as 5e-323 (a valid number in JSON).
 */
const samplingNumber = (min: number, max: number) =>
  z
    .number({ error: 'Enter a number' })
    .min(min, `At least ${min}`)
    .max(max, `At most ${max}`)
    .overwrite((value) => Math.round(value * 10_000) / 10_000);

const agentFields = {
  name: z.string().trim().min(1, 'Enter a name').max(120, 'Use at most 120 characters'),
  type: ZAgentType,
  provider: ZProviderId,
  model: z.string().trim().min(1, 'Choose a model').max(200),
  systemPrompt: z.string().max(20_000, 'Use at most 20,000 characters'),
  firstMessage: z.string().max(2000, 'Use at most 2,000 characters'),
  suggestedResponses: z.array(z.string().trim().min(1).max(200)).max(10, 'At most 10 suggested responses'),
  temperature: samplingNumber(0, 2),
  maxTokens: z
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(1, 'At least 1')
    .max(128_000, 'At most 128000'),
  topP: samplingNumber(0, 1),
  frequencyPenalty: samplingNumber(-2, 2),
  presencePenalty: samplingNumber(-2, 2),
  stopSequences: z.array(z.string().min(1).max(100)).max(4, 'At most 4 stop sequences'),
  tools: z
    .array(ZAgentTool)
    .max(20, 'At most 20 tools')
    .refine((tools) => new Set(tools.map((tool) => tool.name)).size === tools.length, 'Tool names must be unique'),
  enabledTools: z
    .array(ZEnabledTool)
    .max(50, 'At most 50 app tools')
    .refine(
      (tools) => new Set(tools.map((tool) => `${tool.ownerId}:${tool.slug}`)).size === tools.length,
      'Each app tool can be enabled once',
    ),
};

export const ZCreateAgentRequest = z.object({
  name: agentFields.name,
  type: agentFields.type.default(AGENT_DEFAULTS.type),
  provider: agentFields.provider.default(AGENT_DEFAULTS.provider),
  model: agentFields.model.default(AGENT_DEFAULTS.model),
  systemPrompt: agentFields.systemPrompt.default(''),
  firstMessage: agentFields.firstMessage.default(''),
  suggestedResponses: agentFields.suggestedResponses.default([]),
  temperature: agentFields.temperature.default(AGENT_DEFAULTS.temperature),
  maxTokens: agentFields.maxTokens.default(AGENT_DEFAULTS.maxTokens),
  topP: agentFields.topP.default(AGENT_DEFAULTS.topP),
  frequencyPenalty: agentFields.frequencyPenalty.default(AGENT_DEFAULTS.frequencyPenalty),
  presencePenalty: agentFields.presencePenalty.default(AGENT_DEFAULTS.presencePenalty),
  stopSequences: agentFields.stopSequences.default([]),
  tools: agentFields.tools.default([]),
  enabledTools: agentFields.enabledTools.default([]),
});
export type TCreateAgentRequest = z.input<typeof ZCreateAgentRequest>;

export const ZUpdateAgentRequest = z.object(agentFields).partial();
export type TUpdateAgentRequest = z.input<typeof ZUpdateAgentRequest>;

export const ZAgent = z.object({
  id: z.string(),
  subaccountId: z.string(),
  name: z.string(),
  type: ZAgentType,
  provider: ZProviderId,
  model: z.string(),
  systemPrompt: z.string(),
  firstMessage: z.string(),
  suggestedResponses: z.array(z.string()),
  temperature: z.number(),
  maxTokens: z.number(),
  topP: z.number(),
  frequencyPenalty: z.number(),
  presencePenalty: z.number(),
  stopSequences: z.array(z.string()),
  tools: z.array(ZAgentTool.extend({ id: z.string() })),
  enabledTools: z.array(ZEnabledTool),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAgent = z.infer<typeof ZAgent>;

export const ZAgentListResponse = z.object({
  agents: z.array(ZAgent),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TAgentListResponse = z.infer<typeof ZAgentListResponse>;

/** A build as GET /api/builds lists it (spec: buildId, aiName, assistantId = the agent id). */
export const ZBuild = z.object({
  buildId: z.string(),
  aiName: z.string(),
  assistantId: z.string(),
  name: z.string(),
  type: ZAgentType,
  provider: ZProviderId,
  model: z.string(),
  createdAt: z.string(),
});
export type TBuild = z.infer<typeof ZBuild>;
export const ZBuildListResponse = z.object({
  builds: z.array(ZBuild),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

/** Agent creation from an idea: the builder job. */
export const ZAgentBuildRequest = z.object({
  idea: z.string().trim().min(3, 'Describe your agent in a few words').max(2000, 'Use at most 2,000 characters'),
  provider: ZProviderId.optional(),
  model: z.string().trim().min(1).max(200).optional(),
});
export type TAgentBuildRequest = z.infer<typeof ZAgentBuildRequest>;
export const ZAgentBuildResponse = z.object({ jobId: z.string() });

/** What the builder asks the model for (structured output). */
export const ZAgentDraft = z.object({
  name: z.string().min(1).max(120),
  systemPrompt: z.string().min(1).max(20_000),
  firstMessage: z.string().min(1).max(2000),
  suggestedResponses: z.array(z.string().min(1).max(200)).min(3).max(3),
});
export type TAgentDraft = z.infer<typeof ZAgentDraft>;

export const ZAgentJobResponse = z.object({
  jobId: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  result: z.object({ status: z.string(), data: z.unknown() }).nullable(),
  error: z.string().nullable(),
});
export type TAgentJobResponse = z.infer<typeof ZAgentJobResponse>;

export const ZModelChoicesResponse = z.object({
  models: z.array(z.object({ provider: ZProviderId, model: z.string(), label: z.string() })),
});
