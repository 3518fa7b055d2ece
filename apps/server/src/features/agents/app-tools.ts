import {
  type ErrorCode,
  modelToolName,
  reachesOutside,
  type TAppToolGroup,
  type TAppToolOwnerStatus,
  type TAppToolSource,
  type TEnabledTool,
  type TOrigin,
  type TToolEffect,
  toolNotCalled,
  toolRunsFor,
  validateToolArguments,
} from '@switchboard/core';
import type { ToolSet } from 'ai';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';

/**
 * The app tools an agent has enabled (Composio actions, MCP server tools) as AI SDK tools. Each
 * source registers a runner: it says whether a connection or server belongs to a sub-account, what
 * a call would do, and runs a call. Arguments are checked against the tool's schema before any
 * call; a failure reaches the model (and the transcript) as `{ error: { code, message, field?,
 * actions? } }`. A test's call that would write is recorded, not made (`toolRunsFor`).
 */

export interface AppToolCall {
  subaccountId: string;
  tool: TEnabledTool;
  input: Record<string, unknown>;
  /** Where the turn comes from: a test runs only what reads (and, trying an agent, the sandbox's writes). */
  origin: TOrigin;
  signal?: AbortSignal;
}

export interface AppToolRunner {
  /** The connections or servers of the sub-account with the tools each offers (discovered or cached). */
  discover(deps: Deps, subaccountId: string): Promise<TAppToolGroup[]>;
  /** True when the connection or server `ownerId` belongs to the sub-account. */
  owns(db: Db | Tx, subaccountId: string, ownerId: string): Promise<boolean>;
  /**
   * What the call would do, from the tool's metadata as its source gave it at discovery (a tool
   * not found, or whose metadata does not say it only reads, writes).
   */
  effect(deps: Deps, call: AppToolCall): Promise<TToolEffect>;
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

/**
 * Runs one app tool call: fixed values merged in, arguments checked, failures returned as data.
 * For a test, a call that would write is not made: its record says what would have been called.
 */
export const runAppTool = async (deps: Deps, call: AppToolCall): Promise<unknown> => {
  const input = { ...call.input, ...call.tool.fixedValues };
  const bad = validateToolArguments(call.tool.inputSchema, input);
  if (bad) return failure(new AppError('TOOL_EXECUTION_FAILED', bad.message, { field: bad.field }));
  try {
    const runner = runnerFor(call.tool.source);
    if (!reachesOutside(call.origin) && !toolRunsFor(call.origin, await runner.effect(deps, { ...call, input }))) {
      return toolNotCalled(call.tool.slug, input);
    }
    return await runner.run(deps, { ...call, input });
  } catch (error) {
    return failure(error);
  }
};

export const buildAppTools = async (
  deps: Deps,
  subaccountId: string,
  enabled: TEnabledTool[],
  { origin, signal }: { origin: TOrigin; signal?: AbortSignal },
): Promise<ToolSet | undefined> => {
  if (!enabled.length) return undefined;
  const { jsonSchema, tool } = await import('ai');
  const set: ToolSet = {};
  for (const appTool of enabled) {
    set[modelToolName(appTool.slug)] = tool({
      description: appTool.description || appTool.slug,
      inputSchema: jsonSchema<Record<string, unknown>>(schemaForModel(appTool) as never),
      execute: (input) => runAppTool(deps, { subaccountId, tool: appTool, input: input ?? {}, origin, signal }),
    });
  }
  return set;
};
