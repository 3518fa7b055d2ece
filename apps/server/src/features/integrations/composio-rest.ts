import type { TIntegrationStatus } from '@switchboard/core';
import { createOutboundFetch } from '../../platform/outbound';
import { TtlCache } from '../../platform/ttl-cache';
import { type AppInfo, authKindOf, type ComposioClient, ComposioError } from './composio-client';

/**
 * Composio's REST API v3 (https://backend.composio.dev/api/v3, `x-api-key` header): toolkits,
 * auth configs, connected accounts (OAuth redirect or API key), tools by toolkit, tool execution.
 * The address is the operator's (COMPOSIO_BASE_URL), so it goes through the outbound module
 * without the user-URL policy.
 */
export interface ComposioRestSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

const operatorFetch = createOutboundFetch({ policy: null, maxResponseBytes: 5_000_000 });
/** Composio's toolkit list changes rarely: one read per project key and 5 minutes. */
const catalogues = new TtlCache<AppInfo[]>(5 * 60_000, 50);

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const itemsOf = (body: unknown): Json[] => {
  const items = asRecord(body).items;
  return Array.isArray(items) ? items.map(asRecord) : [];
};

/** Words of Composio's errors that mean the connected account needs its owner to sign in again. */
const AUTH_WORDS = /expired|revoked|inactive|reauth|re-auth|invalid[_ ]?grant|unauthori[sz]ed|token|not active/i;

const errorText = (body: unknown): string => {
  const error = asRecord(body).error;
  if (typeof error === 'string') return error;
  const record = asRecord(error);
  return [record.slug, record.message, asRecord(body).message].filter((part) => typeof part === 'string').join(': ');
};

/** Composio's connected-account states as a connection's status. */
export const statusOfAccount = (status: unknown): TIntegrationStatus => {
  switch (String(status ?? '').toUpperCase()) {
    case 'ACTIVE':
      return 'connected';
    case 'INITIALIZING':
    case 'INITIATED':
      return 'pending_connection';
    case 'EXPIRED':
    case 'INACTIVE':
      return 'auth_required';
    default:
      return 'failed';
  }
};

export const createComposioRest = (settings: ComposioRestSettings): ComposioClient => {
  const base = settings.baseUrl.replace(/\/+$/, '');

  const call = async (method: string, path: string, body?: unknown, query: Record<string, string> = {}) => {
    const url = new URL(`${base}/api/v3/${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await operatorFetch(url, {
        method,
        headers: {
          accept: 'application/json',
          'x-api-key': settings.apiKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs ?? 20_000),
      });
    } catch (error) {
      throw new ComposioError('unreachable', `Composio could not be reached: ${(error as Error).message}`);
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (response.ok) return parsed;
    const message = errorText(parsed) || `Composio answered ${response.status}`;
    if (response.status >= 500 || response.status === 429) {
      throw new ComposioError('unreachable', `Composio answered ${response.status}: ${message}`);
    }
    if (AUTH_WORDS.test(message) && /connect|account|token|auth|expired|revoked/i.test(message)) {
      throw new ComposioError('auth', message);
    }
    if (response.status === 401 || response.status === 403) {
      // Our own project key was refused: nothing the sub-account can fix by signing in again.
      throw new ComposioError('unreachable', `Composio refused the project key (${response.status})`);
    }
    throw new ComposioError(response.status === 404 ? 'tool' : 'invalid', message);
  };

  const toApp = (item: Json): AppInfo => {
    const meta = asRecord(item.meta);
    return {
      slug: String(item.slug ?? '').toLowerCase(),
      name: String(item.name ?? item.slug ?? ''),
      description: typeof meta.description === 'string' ? meta.description : '',
      // The list names `auth_schemes`; a single toolkit describes them in `auth_config_details[].mode`.
      authKind: authKindOf(
        item.auth_schemes ??
          item.composio_managed_auth_schemes ??
          (Array.isArray(item.auth_config_details)
            ? item.auth_config_details.map((detail) => asRecord(detail).mode)
            : []),
      ),
      logo: typeof meta.logo === 'string' ? meta.logo : null,
    };
  };

  /** The project's auth config of a toolkit, created (Composio-managed OAuth, or custom API key) when missing. */
  const authConfigFor = async (app: AppInfo): Promise<string> => {
    const found = itemsOf(await call('GET', 'auth_configs', undefined, { toolkit_slug: app.slug }));
    const existing = found.find((item) => String(asRecord(item.toolkit).slug ?? app.slug) === app.slug) ?? found[0];
    if (existing?.id) return String(existing.id);
    const created = asRecord(
      await call('POST', 'auth_configs', {
        toolkit: { slug: app.slug },
        auth_config:
          app.authKind === 'oauth'
            ? { type: 'use_composio_managed_auth' }
            : { type: 'use_custom_auth', authScheme: 'API_KEY', credentials: {} },
      }),
    );
    const id = asRecord(created.auth_config).id ?? created.id;
    if (!id) throw new ComposioError('invalid', `Composio gave no auth config for ${app.slug}`);
    return String(id);
  };

  return {
    sandbox: false,
    listApps: () =>
      catalogues.getOrLoad(`${base}|${settings.apiKey}`, async () =>
        itemsOf(await call('GET', 'toolkits', undefined, { limit: '100' })).map(toApp),
      ),
    findApp: async (slug) => {
      try {
        return toApp(asRecord(await call('GET', `toolkits/${encodeURIComponent(slug)}`)));
      } catch (error) {
        if (error instanceof ComposioError && error.kind !== 'unreachable') return null;
        throw error;
      }
    },
    connect: async (input) => {
      const authConfigId = await authConfigFor(input.app);
      const connection: Json = { user_id: input.userId, callback_url: input.callbackUrl };
      if (input.app.authKind === 'api_key') {
        connection.state = { authScheme: 'API_KEY', val: { status: 'ACTIVE', api_key: input.apiKey ?? '' } };
      }
      const created = asRecord(
        await call('POST', 'connected_accounts', { auth_config: { id: authConfigId }, connection }),
      );
      const externalId = String(created.id ?? created.connected_account_id ?? '');
      if (!externalId) throw new ComposioError('invalid', 'Composio gave no connected account');
      const redirect = created.redirect_url ?? created.redirectUrl ?? asRecord(created.connectionData).redirectUrl;
      const status = statusOfAccount(created.status);
      if (status === 'failed' || status === 'auth_required') {
        throw new ComposioError('invalid', 'The app refused the credentials', 'apiKey');
      }
      return {
        externalId,
        status: status === 'connected' ? 'connected' : 'pending_connection',
        redirectUrl: typeof redirect === 'string' && status !== 'connected' ? redirect : null,
      };
    },
    connectionStatus: async (externalId) =>
      statusOfAccount(asRecord(await call('GET', `connected_accounts/${encodeURIComponent(externalId)}`)).status),
    disconnect: async (externalId) => {
      try {
        await call('DELETE', `connected_accounts/${encodeURIComponent(externalId)}`);
      } catch (error) {
        // Already gone at Composio: the record is removed all the same.
        if (!(error instanceof ComposioError) || error.kind === 'unreachable') throw error;
      }
    },
    listTools: async (appSlug) =>
      itemsOf(await call('GET', 'tools', undefined, { toolkit_slug: appSlug, limit: '100' })),
    execute: async (input) => {
      const body = asRecord(
        await call('POST', `tools/execute/${encodeURIComponent(input.toolSlug)}`, {
          connected_account_id: input.externalId,
          user_id: input.subaccountId,
          arguments: input.arguments,
          ...(input.version ? { version: input.version } : {}),
        }),
      );
      if (body.successful === false) {
        const message = errorText(body) || 'The app refused the call';
        if (AUTH_WORDS.test(message) && /connect|account|token|auth|expired|revoked/i.test(message)) {
          throw new ComposioError('auth', message);
        }
        throw new ComposioError('tool', message);
      }
      return body.data ?? body;
    },
  };
};
