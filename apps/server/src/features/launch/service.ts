import type { TLaunchConnection, TLaunchResponse } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { messagingSandboxOn } from '../channels/sandbox-mode';
import { findConnection } from '../connections/repo';
import { appToolIssues } from './app-tool-issues';
import { setPaused } from './pauses';
import { toRecord } from './records';
import * as repo from './repo';

/** Launch: a page of the caller's sub-accounts, each with the record of every channel connection. */
export const launchOverview = async (
  deps: Deps,
  caller: { userId: string; apiKeySubaccountId?: string },
  query: { page: number; limit: number; subaccountId?: string },
): Promise<TLaunchResponse> => {
  const { page, limit, subaccountId } = query;
  // An API key sees its own sub-account only.
  if (caller.apiKeySubaccountId && subaccountId && subaccountId !== caller.apiKeySubaccountId)
    return { subaccounts: [], page, hasMore: false };
  const { rows, hasMore } = await repo.memberSubaccounts(deps.db, caller.userId, {
    page,
    limit,
    onlySubaccountId: caller.apiKeySubaccountId ?? subaccountId,
  });
  const ids = rows.map((row) => row.subaccountId);
  const [facts, issues] = await Promise.all([repo.connectionFacts(deps.db, ids), appToolIssues(deps.db, ids)]);
  const bySubaccount = new Map<string, TLaunchConnection[]>();
  for (const fact of facts) {
    const record = toRecord(fact, { sandboxOn: messagingSandboxOn(deps.env) });
    if (!record) continue;
    const list = bySubaccount.get(record.subaccountId) ?? [];
    list.push(record);
    bySubaccount.set(record.subaccountId, list);
  }
  return {
    page,
    hasMore,
    subaccounts: rows.map((row) => ({
      ...row,
      connections: bySubaccount.get(row.subaccountId) ?? [],
      appToolIssues: issues.get(row.subaccountId) ?? [],
    })),
  };
};

const ownedRecord = async (deps: Deps, subaccountId: string, connectionId: string) => {
  const facts = await repo.connectionFacts(deps.db, [subaccountId]);
  const fact = facts.find((entry) => entry.id === connectionId);
  const record = fact ? toRecord(fact, { sandboxOn: messagingSandboxOn(deps.env) }) : null;
  if (!record) throw new AppError('CONNECTION_NOT_FOUND', 'The connection does not exist or was deleted.');
  return record;
};

/** Pauses or resumes a channel connection of the sub-account; answers its record afterwards. */
export const setConnectionPaused = async (
  deps: Deps,
  tenant: { subaccountId: string; userId: string },
  connectionId: string,
  paused: boolean,
): Promise<TLaunchConnection> => {
  const connection = await findConnection(deps.db, connectionId);
  if (!connection || connection.subaccountId !== tenant.subaccountId)
    throw new AppError('CONNECTION_NOT_FOUND', 'The connection does not exist or was deleted.');
  await setPaused(deps, { connectionId, subaccountId: tenant.subaccountId, userId: tenant.userId }, paused);
  return ownedRecord(deps, tenant.subaccountId, connectionId);
};
