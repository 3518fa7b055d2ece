import { createHash } from 'node:crypto';
import { fitText, type TInstagramPageChoice, type WidgetSettings } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { metaOauthEnabled } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { newId, newToken } from '../../platform/ids';
import { assertWithinLimit } from '../connections/limits';
import { findAgentInSubaccount } from '../connections/repo';
import { connections } from '../connections/schema';
import { findChannel, markChannelError } from './connections';
import {
  assertInstagramAccountFree,
  claimingAccount,
  instagramColumns,
  safeEqual,
  subscribePage,
  type VerifiedMeta,
} from './instagram';
import { graphCall } from './meta-transport';
import { channelAccounts } from './schema';

/** What the agency grants: read the Instagram account, its messages, and the page that links it. */
const SCOPES = [
  'instagram_basic',
  'instagram_manage_messages',
  'pages_show_list',
  'pages_manage_metadata',
  'pages_messaging',
  'business_management',
];
const STATE_TTL_MS = 10 * 60_000;
export const META_OAUTH_COOKIE = 'sb_meta_oauth';
export const META_OAUTH_COOKIE_PATH = '/api/channels/instagram/oauth';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

export const oauthCallbackUrl = (deps: Deps) =>
  `${deps.publicUrl.replace(/\/$/, '')}/api/channels/instagram/oauth/callback`;

/** Meta's login dialog of the Graph version META_GRAPH_URL names. */
const dialogUrl = (deps: Deps) => {
  const version = new URL(deps.env.META_GRAPH_URL).pathname.match(/v\d+\.\d+/)?.[0] ?? 'v21.0';
  return `https://www.facebook.com/${version}/dialog/oauth`;
};

const requireOauth = (deps: Deps) => {
  if (!metaOauthEnabled(deps.env) || !deps.env.META_APP_ID || !deps.env.META_APP_SECRET)
    throw new AppError(
      'NOT_FOUND',
      'Connect with Meta is not configured on this server (META_APP_ID, META_APP_SECRET).',
    );
  return { appId: deps.env.META_APP_ID, appSecret: deps.env.META_APP_SECRET };
};

/** The connection id a state names (before anything is checked), for the tenant guard. */
export const connectionOfState = (state: string | undefined) => state?.split('.')[0] ?? null;

/**
 * Starts "Connect with Meta" for a new Instagram agent: the connection exists at once in state
 * pending_connection (app_slug instagram) and counts against the plan's connection limit; an
 * unfinished earlier attempt of the sub-account is reused. The state parameter is the connection
 * id and a secret whose hash is stored; the secret also goes into a cookie of this browser.
 */
export const startInstagramOauth = async (
  deps: Deps,
  tenant: { subaccountId: string; accountId: string },
  buildId: string,
) => {
  const { appId } = requireOauth(deps);
  const agent = await findAgentInSubaccount(deps.db, buildId, tenant.subaccountId);
  if (!agent) throw new AppError('BUILD_NOT_FOUND', 'Pick an agent of this sub-account', { field: 'buildId' });
  const secret = newToken(24);
  const now = new Date();
  const pendingColumns = {
    status: 'pending_connection' as const,
    appSlug: 'instagram',
    statusCode: null,
    statusMessage: null,
    oauthStateHash: hash(secret),
    oauthStateExpiresAt: new Date(now.getTime() + STATE_TTL_MS),
    // A choice of pages left from an earlier attempt is not offered again.
    oauthPagesEncrypted: null,
    updatedAt: now,
  };
  const connectionId = await deps.db.transaction(async (tx) => {
    const [pending] = await tx
      .select({ id: connections.id })
      .from(connections)
      .innerJoin(channelAccounts, eq(channelAccounts.connectionId, connections.id))
      .where(
        and(
          eq(connections.subaccountId, tenant.subaccountId),
          eq(connections.type, 'instagram'),
          eq(channelAccounts.status, 'pending_connection'),
        ),
      )
      .limit(1)
      .for('update');
    if (pending) {
      await tx.update(connections).set({ buildId: agent.id, updatedAt: now }).where(eq(connections.id, pending.id));
      await tx.update(channelAccounts).set(pendingColumns).where(eq(channelAccounts.connectionId, pending.id));
      return pending.id;
    }
    await assertWithinLimit(deps, tenant.accountId, 'connections', {
      tx,
      subaccountId: tenant.subaccountId,
      connectionType: 'instagram',
    });
    const id = newId('connection');
    await tx.insert(connections).values({
      id,
      subaccountId: tenant.subaccountId,
      accountId: tenant.accountId,
      type: 'instagram',
      name: `${fitText(agent.name, 64)} Instagram Agent`,
      widgetId: id,
      buildId: agent.id,
      settings: {} as WidgetSettings,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(channelAccounts).values({
      connectionId: id,
      subaccountId: tenant.subaccountId,
      ...instagramColumns(deps, null, { newToken: true }),
      ...pendingColumns,
      transport: 'meta',
      sendRatePerSecond: 1,
    });
    return id;
  });
  const url = new URL(dialogUrl(deps));
  url.searchParams.set('client_id', appId);
  url.searchParams.set('redirect_uri', oauthCallbackUrl(deps));
  url.searchParams.set('state', `${connectionId}.${secret}`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SCOPES.join(','));
  return { connectionId, url: url.href, secret };
};

interface PageRow {
  id?: string;
  name?: string;
  access_token?: string;
  instagram_business_account?: { id?: string; username?: string };
}

type PageCandidate = VerifiedMeta;

/** Code → user token → long-lived token → the pages the agency shared that have an Instagram account. */
const exchange = async (deps: Deps, code: string): Promise<PageCandidate[]> => {
  const { appId, appSecret } = requireOauth(deps);
  const graph = deps.env.META_GRAPH_URL;
  const short = await graphCall<{ access_token?: string }>(graph, 'oauth/access_token', {
    query: { client_id: appId, client_secret: appSecret, redirect_uri: oauthCallbackUrl(deps), code },
  });
  if (!short?.access_token) throw new Error('Meta did not return an access token');
  const long = await graphCall<{ access_token?: string }>(graph, 'oauth/access_token', {
    query: {
      grant_type: 'fb_exchange_token',
      client_id: appId,
      client_secret: appSecret,
      fb_exchange_token: short.access_token,
    },
  });
  const userToken = long?.access_token ?? short.access_token;
  const pages = await graphCall<{ data?: PageRow[] }>(graph, 'me/accounts', {
    token: userToken,
    appSecret,
    query: { fields: 'id,name,access_token,instagram_business_account{id,username}' },
  });
  const candidates = (pages?.data ?? []).flatMap((row): PageCandidate[] =>
    row.id && row.access_token && row.instagram_business_account?.id
      ? [
          {
            pageAccessToken: row.access_token,
            appSecret,
            kind: 'oauth',
            account: {
              pageId: row.id,
              pageName: row.name ?? null,
              instagramAccountId: row.instagram_business_account.id,
              username: row.instagram_business_account.username ?? null,
            },
          },
        ]
      : [],
  );
  if (!candidates.length)
    throw new Error(
      'No Facebook page with a linked Instagram professional account was shared. Share one and try again.',
    );
  return candidates;
};

/** The chosen page: free, subscribed to the messaging webhooks, then saved live (choices cleared). */
const connectPage = async (deps: Deps, connectionId: string, verified: VerifiedMeta) => {
  await assertInstagramAccountFree(deps, verified.account.instagramAccountId, connectionId);
  await subscribePage(deps, verified);
  await claimingAccount(
    deps.db
      .update(channelAccounts)
      .set({ ...instagramColumns(deps, verified, { newToken: false }), updatedAt: new Date() })
      .where(eq(channelAccounts.connectionId, connectionId)),
  );
};

const storedChoice = (
  deps: Deps,
  account: { oauthPagesEncrypted: string | null; oauthStateExpiresAt: Date | null },
) => {
  if (
    !account.oauthPagesEncrypted ||
    !account.oauthStateExpiresAt ||
    account.oauthStateExpiresAt.getTime() <= Date.now()
  )
    return null;
  return {
    pages: JSON.parse(decryptSecret(deps.env, account.oauthPagesEncrypted)) as PageCandidate[],
    expiresAt: account.oauthStateExpiresAt,
  };
};

const pendingChoice = async (deps: Deps, subaccountId: string, connectionId: string) => {
  const channel = await findChannel(deps.db, connectionId);
  if (!channel || channel.connection.subaccountId !== subaccountId || channel.connection.type !== 'instagram')
    throw new AppError('CONNECTION_NOT_FOUND', 'This Instagram connection does not exist.');
  const choice = channel.account.status === 'pending_connection' ? storedChoice(deps, channel.account) : null;
  if (!choice)
    throw new AppError(
      'NOT_FOUND',
      'There is no page to choose for this connection (the choice expired or was made). Start "Connect with Meta" again.',
    );
  return choice;
};

/** The pages "Connect with Meta" shared, for the agency to pick one (tokens stay on the server). */
export const instagramPageChoice = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
): Promise<TInstagramPageChoice> => {
  const choice = await pendingChoice(deps, subaccountId, connectionId);
  return { pages: choice.pages.map((page) => page.account), expiresAt: choice.expiresAt.toISOString() };
};

/** Connects the page the agency picked among those shared; another page id is refused (422). */
export const chooseInstagramPage = async (deps: Deps, subaccountId: string, connectionId: string, pageId: string) => {
  const choice = await pendingChoice(deps, subaccountId, connectionId);
  const picked = choice.pages.find((page) => page.account.pageId === pageId);
  if (!picked) throw new AppError('VALIDATION_ERROR', 'Pick one of the pages shared with Meta.', { field: 'pageId' });
  await connectPage(deps, connectionId, picked);
};

/**
 * Meta's redirect back. The state must name a pending Instagram connection of the caller's
 * sub-account, match the stored hash and this browser's cookie, and be under ten minutes old;
 * otherwise nothing changes (403). A refused or failed exchange leaves the connection in the error
 * state with CONNECTION_CREATION_FAILED and why.
 */
export const completeInstagramOauth = async (
  deps: Deps,
  subaccountId: string,
  input: { state?: string; code?: string; error?: string; errorDescription?: string; cookie?: string },
) => {
  requireOauth(deps);
  const [connectionId = '', secret = ''] = (input.state ?? '').split('.');
  const channel = await findChannel(deps.db, connectionId);
  const account = channel?.account;
  const valid =
    channel &&
    account &&
    channel.connection.type === 'instagram' &&
    channel.connection.subaccountId === subaccountId &&
    account.status === 'pending_connection' &&
    account.oauthStateHash &&
    account.oauthStateExpiresAt &&
    account.oauthStateExpiresAt.getTime() > Date.now() &&
    secret.length > 0 &&
    safeEqual(hash(secret), account.oauthStateHash) &&
    safeEqual(input.cookie ?? '', secret);
  if (!valid)
    throw new AppError(
      'FORBIDDEN',
      'This Meta sign-in link is not valid or has expired. Start "Connect with Meta" again.',
    );
  // The state is spent whatever happens next.
  await deps.db
    .update(channelAccounts)
    .set({ oauthStateHash: null, oauthStateExpiresAt: null })
    .where(eq(channelAccounts.connectionId, connectionId));
  const fail = async (message: string) => {
    await markChannelError(deps, connectionId, { code: 'CONNECTION_CREATION_FAILED', message });
    await deps.db
      .update(channelAccounts)
      .set({ oauthPagesEncrypted: null })
      .where(eq(channelAccounts.connectionId, connectionId));
    return { connectionId, ok: false as const };
  };
  if (input.error || !input.code)
    return fail(fitText(input.errorDescription ?? 'Meta sign-in was cancelled before access was granted.', 300));
  try {
    const pages = await exchange(deps, input.code);
    if (pages.length === 1 && pages[0]) {
      await connectPage(deps, connectionId, pages[0]);
      return { connectionId, ok: true as const };
    }
    // Several pages with an Instagram account: the agency picks one on the connection's page.
    await deps.db
      .update(channelAccounts)
      .set({
        oauthPagesEncrypted: encryptSecret(deps.env, JSON.stringify(pages)),
        oauthStateExpiresAt: new Date(Date.now() + STATE_TTL_MS),
        updatedAt: new Date(),
      })
      .where(eq(channelAccounts.connectionId, connectionId));
    return { connectionId, ok: 'choose' as const };
  } catch (error) {
    return fail(error instanceof AppError || error instanceof Error ? error.message : String(error));
  }
};
