import { appToolReadsOnly, type TAppToolGroup } from '@switchboard/core';
import { AppError } from '../../platform/errors';
import { type AppToolRunner, registerAppToolRunner } from '../agents/app-tools';
import { ComposioError } from './composio-client';
import * as repo from './repo';
import { appErrorOf, clientFor } from './service';

/**
 * The 'composio' app tool runner: a sub-account's connections are its groups, a call runs through
 * the connection's adapter. An expired or revoked account answers COMPOSIO_AUTH_REQUIRED and the
 * connection becomes auth_required; an unreachable Composio answers COMPOSIO_CONNECTION_FAILED and
 * the connection becomes failed; a successful call marks a failed connection connected again.
 */
export const composioRunner: AppToolRunner = {
  async discover(deps, subaccountId) {
    const rows = await repo.listConnections(deps.db, subaccountId);
    return rows.map(
      (row): TAppToolGroup => ({
        source: 'composio',
        ownerId: row.id,
        ownerName: row.appName,
        status: row.status,
        sandbox: row.sandbox,
        tools: row.discoveredTools,
      }),
    );
  },
  async statuses(db, subaccountIds) {
    const rows = await repo.listConnectionsOf(db, subaccountIds);
    return new Map(rows.map((row) => [row.id, { name: row.appName, status: row.status, sandbox: row.sandbox }]));
  },
  async owns(db, subaccountId, ownerId) {
    return Boolean(await repo.findOwnConnection(db, subaccountId, ownerId));
  },
  /** Composio's tags of the tool; a write of the sandbox catalogue only reaches our own sandbox. */
  async effect(deps, call) {
    const row = await repo.findOwnConnection(deps.db, call.subaccountId, call.tool.ownerId);
    const found = row?.discoveredTools.find((candidate) => candidate.slug === call.tool.slug);
    if (found && appToolReadsOnly(found.raw)) return 'read';
    return row?.sandbox ? 'sandbox' : 'write';
  },
  async run(deps, call) {
    const row = await repo.findOwnConnection(deps.db, call.subaccountId, call.tool.ownerId);
    if (!row)
      throw new AppError('COMPOSIO_AUTH_REQUIRED', 'This app is no longer connected. Connect the account again.');
    if (row.status === 'pending_connection' || row.status === 'auth_required' || !row.externalId) {
      throw new AppError('COMPOSIO_AUTH_REQUIRED', `${row.appName} is not connected. Connect the account first.`);
    }
    try {
      const result = await clientFor(deps, row).execute({
        subaccountId: row.subaccountId,
        connectionId: row.id,
        externalId: row.externalId,
        toolSlug: call.tool.slug,
        version: call.tool.version,
        arguments: call.input,
      });
      if (row.status === 'failed')
        await repo.updateConnection(deps.db, row.id, { status: 'connected', lastError: null });
      return result;
    } catch (error) {
      if (error instanceof ComposioError && (error.kind === 'auth' || error.kind === 'unreachable')) {
        await repo.updateConnection(deps.db, row.id, {
          status: error.kind === 'auth' ? 'auth_required' : 'failed',
          lastError: error.message,
        });
      }
      throw appErrorOf(error);
    }
  },
};

export const registerComposioRunner = () => registerAppToolRunner('composio', composioRunner);
