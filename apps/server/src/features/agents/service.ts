import {
  type FieldSchema,
  modelToolName,
  type TAgent,
  type TAgentTool,
  type TBuild,
  type TCreateAgentRequest,
  type TEnabledTool,
  type TUpdateAgentRequest,
  validateFieldValue,
  ZCreateAgentRequest,
  ZUpdateAgentRequest,
} from '@switchboard/core';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import { assertWithinLimit } from '../billing/limits';
import { assertToolOwners } from './app-tools';
import { invalidateAgent } from './cache';
import * as repo from './repo';
import type { AgentToolRow } from './schema';

export const agentView = (row: repo.AgentRow): TAgent => ({
  id: row.id,
  subaccountId: row.subaccountId,
  name: row.name,
  type: row.type,
  provider: row.provider,
  model: row.model,
  systemPrompt: row.systemPrompt,
  firstMessage: row.firstMessage,
  suggestedResponses: row.suggestedResponses,
  temperature: row.temperature,
  maxTokens: row.maxTokens,
  topP: row.topP,
  frequencyPenalty: row.frequencyPenalty,
  presencePenalty: row.presencePenalty,
  stopSequences: row.stopSequences,
  tools: row.tools as TAgent['tools'],
  enabledTools: row.enabledTools,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const buildView = (row: repo.AgentRow): TBuild => ({
  buildId: row.id,
  aiName: row.name,
  assistantId: row.id,
  name: row.name,
  type: row.type,
  provider: row.provider,
  model: row.model,
  createdAt: row.createdAt.toISOString(),
});

/** Checks the manual values of each tool against its input schema; field errors name the value. */
const toolRows = (tools: TAgentTool[]): AgentToolRow[] =>
  tools.map((tool, index) => {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, FieldSchema>;
    for (const name of tool.inputSchema.required ?? []) {
      if (!(name in properties)) {
        throw new AppError('VALIDATION_ERROR', `Required field ${name} is not a property of the schema`, {
          field: `tools.${index}.inputSchema.required`,
        });
      }
    }
    for (const [name, value] of Object.entries(tool.fixedValues)) {
      const schema = properties[name];
      if (!schema) {
        throw new AppError('VALIDATION_ERROR', `${name} is not a field of the tool's input`, {
          field: `tools.${index}.fixedValues.${name}`,
        });
      }
      const error = validateFieldValue(name, schema, value);
      if (error) throw new AppError('VALIDATION_ERROR', error, { field: `tools.${index}.fixedValues.${name}` });
    }
    return {
      id: tool.id ?? newId('agent').replace(/^agt_/, 'tool_'),
      name: tool.name,
      description: tool.description,
      method: tool.method,
      url: tool.url,
      headers: tool.headers,
      inputSchema: tool.inputSchema as Record<string, unknown>,
      fixedValues: tool.fixedValues,
    };
  });

/** Checks the manual values of each enabled app tool, and that no two tools share a name. */
const enabledToolRows = (tools: TEnabledTool[], httpTools: { name: string }[]): TEnabledTool[] => {
  const names = new Set(httpTools.map((tool) => tool.name));
  tools.forEach((tool, index) => {
    const name = modelToolName(tool.slug);
    if (names.has(name)) {
      throw new AppError('VALIDATION_ERROR', `Two tools are named ${name}`, { field: `enabledTools.${index}.slug` });
    }
    names.add(name);
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, FieldSchema>;
    for (const [field, value] of Object.entries(tool.fixedValues)) {
      const schema = properties[field];
      const error = schema ? validateFieldValue(field, schema, value) : `${field} is not a field of the tool's input`;
      if (error) throw new AppError('VALIDATION_ERROR', error, { field: `enabledTools.${index}.fixedValues.${field}` });
    }
  });
  return tools;
};

export const requireAgent = async (db: Db, tenant: Tenant, agentId: string): Promise<repo.AgentRow> => {
  const agent = await repo.findAgentIn(db, tenant.subaccountId, agentId);
  if (!agent) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
  return agent;
};

/** Throws 403 when the plan's agents-per-sub-account limit is reached (counted under the account lock, in `tx`). */
export const assertCanAddAgent = (deps: Deps, accountId: string, subaccountId: string, tx?: Tx) =>
  assertWithinLimit(deps, accountId, 'agents', { tx, count: (db) => repo.countAgentsIn(db, subaccountId) });

/** Inserts an agent unless the plan's agents-per-sub-account limit is reached (checked under the account lock). */
export const insertAgentWithinLimit = (deps: Deps, row: repo.NewAgentRow): Promise<repo.AgentRow> =>
  deps.db.transaction(async (tx) => {
    await assertCanAddAgent(deps, row.accountId, row.subaccountId, tx);
    return repo.insertAgent(tx, row);
  });

export const createAgent = async (deps: Deps, tenant: Tenant, body: TCreateAgentRequest): Promise<TAgent> => {
  const input = ZCreateAgentRequest.parse(body);
  await assertToolOwners(deps.db, tenant.subaccountId, input.enabledTools);
  const row = await insertAgentWithinLimit(deps, {
    id: newId('agent'),
    accountId: tenant.accountId,
    subaccountId: tenant.subaccountId,
    ...input,
    tools: toolRows(input.tools),
    enabledTools: enabledToolRows(input.enabledTools, input.tools),
  });
  return agentView(row);
};

export const updateAgent = async (
  db: Db | Tx,
  tenant: Tenant,
  agentId: string,
  body: TUpdateAgentRequest,
): Promise<TAgent> => {
  const input = ZUpdateAgentRequest.parse(body);
  const { tools, enabledTools, ...rest } = input;
  const current = enabledTools && !tools ? await repo.findAgentIn(db, tenant.subaccountId, agentId) : null;
  if (enabledTools) await assertToolOwners(db, tenant.subaccountId, enabledTools);
  const row = await repo.updateAgent(db, tenant.subaccountId, agentId, {
    ...rest,
    ...(tools ? { tools: toolRows(tools) } : {}),
    ...(enabledTools ? { enabledTools: enabledToolRows(enabledTools, tools ?? current?.tools ?? []) } : {}),
  });
  if (!row) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
  invalidateAgent(agentId);
  return agentView(row);
};

export const duplicateAgent = async (deps: Deps, tenant: Tenant, agentId: string): Promise<TAgent> => {
  const source = await requireAgent(deps.db, tenant, agentId);
  const { id: _id, createdAt: _created, updatedAt: _updated, ...copy } = source;
  const row = await insertAgentWithinLimit(deps, {
    ...copy,
    id: newId('agent'),
    name: `${source.name} (copy)`.slice(0, 120),
  });
  return agentView(row);
};

export const deleteAgent = async (db: Db, tenant: Tenant, agentId: string): Promise<void> => {
  const deleted = await repo.deleteAgent(db, tenant.subaccountId, agentId);
  invalidateAgent(agentId);
  if (!deleted) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
};

export const listAgents = async (db: Db, subaccountId: string, page: number, limit: number) => {
  const { items, total } = await repo.listAgents(db, subaccountId, page, limit);
  return { agents: items.map(agentView), total: Number(total), page, limit };
};
