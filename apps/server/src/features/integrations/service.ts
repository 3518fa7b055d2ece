import {
  convertToolSchema,
  integrationStatus,
  type TConnectIntegrationRequest,
  type TConnectIntegrationResponse,
  type TIntegrationAppsResponse,
  type TIntegrationConnection,
  type TIntegrationStatusResponse,
  type TSandboxRecordsResponse,
} from '@switchboard/core';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId, newToken } from '../../platform/ids';
import type { ComposioClient } from './composio-client';
import { ComposioError } from './composio-client';
import { createComposioRest } from './composio-rest';
import * as repo from './repo';
import { createSandboxCatalogue } from './sandbox-catalogue';

/** Composio when COMPOSIO_API_KEY is set; otherwise (production included) the labelled sandbox. */
export const composioClient = (deps: Deps, sandbox = !deps.env.COMPOSIO_API_KEY): ComposioClient =>
  sandbox || !deps.env.COMPOSIO_API_KEY
    ? createSandboxCatalogue(deps.db)
    : createComposioRest({ apiKey: deps.env.COMPOSIO_API_KEY, baseUrl: deps.env.COMPOSIO_BASE_URL });

/** A connection's own adapter: a sandbox connection stays in the sandbox even after a key is set. */
export const clientFor = (deps: Deps, row: repo.ConnectionRow) => composioClient(deps, row.sandbox);

/** A failure of Composio as the catalogue's error (spec evaluation.md 8.5). */
export const appErrorOf = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (error instanceof ComposioError) {
    if (error.kind === 'auth') return new AppError('COMPOSIO_AUTH_REQUIRED', error.message);
    if (error.kind === 'unreachable') return new AppError('COMPOSIO_CONNECTION_FAILED', error.message);
    if (error.kind === 'invalid') {
      return new AppError('VALIDATION_ERROR', error.message, { field: error.field ?? 'appSlug' });
    }
    return new AppError('TOOL_EXECUTION_FAILED', error.message, error.field ? { field: error.field } : {});
  }
  return new AppError('COMPOSIO_CONNECTION_FAILED', error instanceof Error ? error.message : 'Composio failed');
};

const notFound = () => new AppError('NOT_FOUND', 'The app connection does not exist or was removed.');

export const listApps = async (deps: Deps): Promise<TIntegrationAppsResponse> => {
  const client = composioClient(deps);
  try {
    const apps = await client.listApps();
    return { apps: apps.map((app) => ({ ...app, sandbox: client.sandbox })), sandbox: client.sandbox };
  } catch (error) {
    throw appErrorOf(error);
  }
};

export const listConnections = async (db: Db, subaccountId: string): Promise<TIntegrationConnection[]> =>
  (await repo.listConnections(db, subaccountId)).map(repo.toView);

/** Reads the app's tools and keeps them (converted) on the connection. */
const discover = async (deps: Deps, row: repo.ConnectionRow) => {
  const raw = await clientFor(deps, row).listTools(row.appSlug);
  const tools = raw.map((tool) => convertToolSchema(tool, 'composio')).filter((tool) => tool.slug);
  return (await repo.updateConnection(deps.db, row.id, { discoveredTools: tools })) ?? row;
};

export const connectApp = async (
  deps: Deps,
  tenant: { accountId: string; subaccountId: string },
  body: TConnectIntegrationRequest,
): Promise<TConnectIntegrationResponse> => {
  const client = composioClient(deps);
  let app: Awaited<ReturnType<ComposioClient['findApp']>>;
  try {
    app = await client.findApp(body.appSlug);
  } catch (error) {
    throw appErrorOf(error);
  }
  if (!app) throw new AppError('VALIDATION_ERROR', 'There is no such app', { field: 'appSlug' });
  if (app.authKind === 'api_key' && !body.apiKey) {
    throw new AppError('VALIDATION_ERROR', 'Enter the API key', { field: 'apiKey' });
  }
  const existing = await repo.findConnectionByApp(deps.db, tenant.subaccountId, app.slug);
  if (existing?.status === 'connected' && existing.sandbox === client.sandbox) {
    return { connection: repo.toView(existing), redirectUrl: null };
  }
  const state = newToken(24);
  const callbackUrl = `${deps.publicUrl.replace(/\/$/, '')}/api/integrations/oauth/callback?state=${state}`;
  let result: Awaited<ReturnType<ComposioClient['connect']>>;
  try {
    result = await client.connect({ userId: tenant.subaccountId, app, apiKey: body.apiKey, callbackUrl });
  } catch (error) {
    if (error instanceof ComposioError && error.kind === 'invalid' && !error.field) {
      throw new AppError('VALIDATION_ERROR', error.message, {
        field: app.authKind === 'api_key' ? 'apiKey' : 'appSlug',
      });
    }
    throw appErrorOf(error);
  }
  const values = {
    status: result.status,
    externalId: result.externalId,
    oauthState: result.status === 'pending_connection' ? state : null,
    lastError: null,
    sandbox: client.sandbox,
    authKind: app.authKind,
  };
  let row = existing
    ? ((await repo.updateConnection(deps.db, existing.id, values)) ?? existing)
    : await repo.insertConnection(deps.db, {
        id: newId('integrationConnection'),
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
        appSlug: app.slug,
        appName: app.name,
        ...values,
      });
  if (row.status === 'connected') row = await discover(deps, row).catch(() => row);
  let redirectUrl = result.redirectUrl;
  // The sandbox has no consent page: its redirect is our own callback, kept relative to this origin.
  if (redirectUrl && client.sandbox) {
    const url = new URL(redirectUrl);
    redirectUrl = `${url.pathname}${url.search}`;
  }
  return { connection: repo.toView(row), redirectUrl };
};

/** The OAuth callback: asks the adapter how the connection ended and keeps the answer. */
export const completeOauth = async (deps: Deps, subaccountId: string, state: string | undefined) => {
  const row = state ? await repo.findConnectionByState(deps.db, state) : null;
  if (!row || row.subaccountId !== subaccountId) throw notFound();
  let status: repo.ConnectionRow['status'];
  try {
    status = await clientFor(deps, row).connectionStatus(row.externalId ?? '');
  } catch (error) {
    status = error instanceof ComposioError && error.kind === 'auth' ? 'auth_required' : 'failed';
  }
  let updated =
    (await repo.updateConnection(deps.db, row.id, {
      status,
      oauthState: status === 'pending_connection' ? row.oauthState : null,
      lastError: status === 'connected' || status === 'pending_connection' ? null : 'The app was not connected',
    })) ?? row;
  if (updated.status === 'connected') updated = await discover(deps, updated).catch(() => updated);
  return updated;
};

export const disconnectApp = async (deps: Deps, subaccountId: string, id: string) => {
  const row = await repo.findOwnConnection(deps.db, subaccountId, id);
  if (!row) throw notFound();
  if (row.externalId) {
    try {
      await clientFor(deps, row).disconnect(row.externalId);
    } catch (error) {
      deps.log.warn({ err: error, connectionId: id }, 'Composio did not confirm the disconnection');
    }
  }
  await repo.deleteConnection(deps.db, row.id);
};

export const rediscoverTools = async (deps: Deps, subaccountId: string, id: string) => {
  const row = await repo.findOwnConnection(deps.db, subaccountId, id);
  if (!row) throw notFound();
  try {
    return repo.toView(await discover(deps, row));
  } catch (error) {
    throw appErrorOf(error);
  }
};

export const statusStore = async (db: Db, subaccountId: string): Promise<TIntegrationStatusResponse> =>
  integrationStatus(await repo.listConnections(db, subaccountId));

export const sandboxRecords = async (db: Db, subaccountId: string): Promise<TSandboxRecordsResponse> => ({
  records: (await repo.listSandboxRecords(db, subaccountId)).map((row) => ({
    id: row.id,
    connectionId: row.connectionId,
    kind: row.kind,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
  })),
});
