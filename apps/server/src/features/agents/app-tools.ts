import {
  type ErrorCode,
  modelToolName,
  type TAppToolGroup,
  type TAppToolOwnerStatus,
  type TAppToolSource,
  type TEnabledTool,
  validateToolArguments,
} from '@switchboard/core';
import { jsonSchema, type ToolSet, tool } from 'ai';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';

/**
 * The app tools an agent has enabled (Composio actions, MCP server tools) as AI SDK tools. Each
 * source registers a runner: it says whether a connection or server belongs to a sub-account, and
 * runs a call. Arguments are checked against the tool's schema before any call; a failure reaches
 * the model (and the transcript) as `{ error: { code, message, field?, actions? } }`.
 */

export interface AppToolCall {
  subaccountId: string;
  tool: TEnabledTool;
  input: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface AppToolRunner {
  /** The connections or servers of the sub-account with the tools each offers (discovered or cached). */
  discover(deps: Deps, subaccountId: string): Promise<TAppToolGroup[]>;
  /** True when the connection or server `ownerId` belongs to the sub-account. */
  owns(db: Db | Tx, subaccountId: string, ownerId: string): Promise<boolean>;
  /** Runs the call; throws AppError (TOOL_EXECUTION_FAILED, COMPOSIO_*) when it fails. */
  run(deps: Deps, call: AppToolCall): Promise<unknown>;
  /** The stored name and status of every connection or server of the sub-accounts (no network). */
  statuses?(db: Db | Tx, subaccountIds: string[]): Promise<Map<string, AppToolOwnerState>>;
}

export interface AppToolOwnerState {
  name: string;
  status: TAppToolOwnerStatus;
  sandbox: boolean;
}

/** Every source's stored owner states, keyed `{source}:{ownerId}` (for the Launch checklist). */
export const appToolOwnerStates = async (db: Db | Tx, subaccountIds: string[]) => {
  const merged = new Map<string, AppToolOwnerState>();
  if (!subaccountIds.length) return merged;
  for (const [source, runner] of runners) {
    const states = (await runner.statuses?.(db, subaccountIds)) ?? new Map<string, AppToolOwnerState>();
    for (const [ownerId, state] of states) merged.set(`${source}:${ownerId}`, state);
  }
  return merged;
};

const runners = new Map<TAppToolSource, AppToolRunner>();

/** Every source's groups for the sub-account, for the agent page's app tools. */
export const discoverAppTools = async (deps: Deps, subaccountId: string): Promise<TAppToolGroup[]> => {
  const groups = await Promise.all([...runners.values()].map((runner) => runner.discover(deps, subaccountId)));
  return groups.flat();
};

export const registerAppToolRunner = (source: TAppToolSource, runner: AppToolRunner) => {
  runners.set(source, runner);
};

const runnerFor = (source: TAppToolSource): AppToolRunner => {
  const runner = runners.get(source);
  if (!runner) throw new AppError('TOOL_EXECUTION_FAILED', `No runner for ${source} tools`);
  return runner;
};

/** Refuses enabled tools whose connection or server is not the sub-account's own. */
export const assertToolOwners = async (db: Db | Tx, subaccountId: string, tools: TEnabledTool[]) => {
  const seen = new Map<string, boolean>();
  for (const [index, appTool] of tools.entries()) {
    const key = `${appTool.source}:${appTool.ownerId}`;
    let owned = seen.get(key);
    if (owned === undefined) {
      // A source this server does not run (no runner registered) owns nothing here.
      owned = (await runners.get(appTool.source)?.owns(db, subaccountId, appTool.ownerId)) ?? false;
      seen.set(key, owned);
    }
    if (!owned) {
      throw new AppError('VALIDATION_ERROR', 'This app connection or MCP server is not in this sub-account', {
        field: `enabledTools.${index}.ownerId`,
      });
    }
  }
};

const schemaForModel = (appTool: TEnabledTool): Record<string, unknown> => {
  const fixed = new Set(Object.keys(appTool.fixedValues));
  const properties = Object.fromEntries(
    Object.entries(appTool.inputSchema.properties ?? {}).filter(([name]) => !fixed.has(name)),
  );
  return {
    type: 'object',
    properties,
    required: (appTool.inputSchema.required ?? []).filter((name) => !fixed.has(name)),
  };
};

export interface AppToolFailure {
  error: { code: ErrorCode; message: string; field?: string; actions?: string[] };
}

const failure = (error: unknown): AppToolFailure => {
  if (error instanceof AppError) {
    return { error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } };
  }
  return {
    error: { code: 'TOOL_EXECUTION_FAILED', message: error instanceof Error ? error.message : 'The tool call failed' },
  };
};

/** Runs one app tool call: fixed values merged in, arguments checked, failures returned as data. */
export const runAppTool = async (deps: Deps, call: AppToolCall): Promise<unknown> => {
  const input = { ...call.input, ...call.tool.fixedValues };
  const bad = validateToolArguments(call.tool.inputSchema, input);
  if (bad) return failure(new AppError('TOOL_EXECUTION_FAILED', bad.message, { field: bad.field }));
  try {
    return await runnerFor(call.tool.source).run(deps, { ...call, input });
  } catch (error) {
    return failure(error);
  }
};

export const buildAppTools = (
  deps: Deps,
  subaccountId: string,
  enabled: TEnabledTool[],
  signal?: AbortSignal,
): ToolSet | undefined => {
  if (!enabled.length) return undefined;
  const set: ToolSet = {};
  for (const appTool of enabled) {
    set[modelToolName(appTool.slug)] = tool({
      description: appTool.description || appTool.slug,
      inputSchema: jsonSchema<Record<string, unknown>>(schemaForModel(appTool) as never),
      execute: (input) => runAppTool(deps, { subaccountId, tool: appTool, input: input ?? {}, signal }),
    });
  }
  return set;
};
