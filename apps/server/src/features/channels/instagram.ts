import { timingSafeEqual } from 'node:crypto';
import type { TChannelConnection, TMetaCredentials } from '@switchboard/core';
import { and, eq, ne } from 'drizzle-orm';
import { decryptSecret, encryptSecret, maskTail } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newToken } from '../../platform/ids';
import { type MetaAccount, MetaTransport } from './meta-transport';
import { channelAccounts } from './schema';
import { TransportError } from './transport';

type AccountRow = typeof channelAccounts.$inferSelect;

/** Verified Meta credentials and the Instagram account they answer for. */
export interface VerifiedMeta {
  pageAccessToken: string;
  appSecret: string;
  account: MetaAccount;
  kind: 'page_token' | 'oauth';
}

/** Equal strings, compared in constant time (verify tokens, signatures). */
export const safeEqual = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export const metaTransportOf = (deps: Deps, account: AccountRow) => {
  if (!account.secretEncrypted || !account.webhookTokenEncrypted)
    throw new AppError('META_AUTH_FAILED', 'This connection has no Meta credentials. Enter them again.');
  return new MetaTransport({
    pageAccessToken: decryptSecret(deps.env, account.secretEncrypted),
    appSecret: decryptSecret(deps.env, account.webhookTokenEncrypted),
    graphUrl: deps.env.META_GRAPH_URL,
  });
};

/** An Instagram account answers for one connection only (its webhooks are routed by account id). */
export const assertInstagramAccountFree = async (deps: Deps, instagramAccountId: string, exceptConnection?: string) => {
  const conditions = [eq(channelAccounts.externalAccountId, instagramAccountId)];
  if (exceptConnection) conditions.push(ne(channelAccounts.connectionId, exceptConnection));
  const [taken] = await deps.db
    .select({ id: channelAccounts.connectionId })
    .from(channelAccounts)
    .where(and(...conditions))
    .limit(1);
  if (taken)
    throw new AppError(
      'CONFLICT',
      'This Instagram account is already connected to another agent. Disconnect it there first.',
    );
};

const ACCOUNT_TAKEN = 'This Instagram account is already connected to another agent. Disconnect it there first.';

/** Two saves of the same Instagram account at once: the unique index stops the second, answered as 409. */
export const claimingAccount = async <T>(write: Promise<T>): Promise<T> => {
  try {
    return await write;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
    const code = (error as { code?: string }).code ?? cause?.code;
    if (code === '23505' && String((error as Error).message + (cause?.constraint ?? '')).includes('external_account'))
      throw new AppError('CONFLICT', ACCOUNT_TAKEN);
    throw error;
  }
};

/** Checks a page token and app secret with one cheap Graph call (GET /me) before anything is saved. */
export const verifyMetaCredentials = async (
  deps: Deps,
  credentials: TMetaCredentials,
  kind: VerifiedMeta['kind'] = 'page_token',
): Promise<VerifiedMeta> => {
  const transport = new MetaTransport({ ...credentials, graphUrl: deps.env.META_GRAPH_URL, timeoutMs: 10_000 });
  try {
    return { ...credentials, kind, account: await transport.account() };
  } catch (error) {
    if (error instanceof TransportError && error.errorCode === 'NO_INSTAGRAM_ACCOUNT')
      throw new AppError('VALIDATION_ERROR', error.message, { field: 'meta.pageAccessToken' });
    if (error instanceof TransportError && (error.authFailed || error.httpStatus === 400 || error.httpStatus === 403))
      throw new AppError(
        'META_AUTH_FAILED',
        `Meta refused these credentials (${error.message}). Check the page access token and the app secret.`,
        { field: 'meta.pageAccessToken' },
      );
    throw new AppError('META_API_ERROR', `Meta could not check the credentials: ${(error as Error).message}`);
  }
};

/**
 * Subscribes the page to the app's messaging webhooks (POST /{page-id}/subscribed_apps): until it is,
 * Meta delivers no direct message, so a connection is saved live only once Meta confirmed it.
 */
export const subscribePage = async (
  deps: Deps,
  verified: Pick<VerifiedMeta, 'pageAccessToken' | 'appSecret' | 'account'>,
) => {
  const transport = new MetaTransport({
    pageAccessToken: verified.pageAccessToken,
    appSecret: verified.appSecret,
    graphUrl: deps.env.META_GRAPH_URL,
    timeoutMs: 10_000,
  });
  const page = verified.account.pageName ?? verified.account.pageId;
  try {
    await transport.subscribe(verified.account.pageId);
  } catch (error) {
    const reason = (error as Error).message;
    if (error instanceof TransportError && !error.transient && error.httpStatus !== null && error.httpStatus < 500)
      throw new AppError(
        'META_AUTH_FAILED',
        `Meta refused to subscribe the page ${page} to the app's messaging webhooks (${reason}). The token needs the pages_manage_metadata and instagram_manage_messages permissions; the connection is not live until the page is subscribed.`,
        { field: 'meta.pageAccessToken' },
      );
    throw new AppError(
      'META_API_ERROR',
      `The page ${page} could not be subscribed to the app's messaging webhooks: ${reason}. The connection is not live until it is; try again.`,
    );
  }
};

/** Verified credentials of an Instagram account no other connection answers for, its page subscribed. */
export const verifiedInstagram = async (deps: Deps, credentials: TMetaCredentials, exceptConnection?: string) => {
  const verified = await verifyMetaCredentials(deps, credentials);
  await assertInstagramAccountFree(deps, verified.account.instagramAccountId, exceptConnection);
  await subscribePage(deps, verified);
  return verified;
};

/** The stored form of an Instagram connection's transport: the sandbox, or verified Meta credentials (encrypted). */
export const instagramColumns = (deps: Deps, verified: VerifiedMeta | null, options: { newToken: boolean }) => ({
  ...(options.newToken ? { verifyTokenEncrypted: encryptSecret(deps.env, newToken(24)) } : {}),
  status: 'live' as const,
  appSlug: null,
  statusCode: null,
  statusMessage: null,
  accountSid: null,
  apiKeySid: null,
  senderPhone: null,
  messagingServiceSid: null,
  oauthStateHash: null,
  oauthStateExpiresAt: null,
  oauthPagesEncrypted: null,
  ...(verified
    ? {
        transport: 'meta' as const,
        credentialKind: verified.kind,
        secretEncrypted: encryptSecret(deps.env, verified.pageAccessToken),
        secretLast4: maskTail(verified.pageAccessToken),
        webhookTokenEncrypted: encryptSecret(deps.env, verified.appSecret),
        externalAccountId: verified.account.instagramAccountId,
        externalAccountName: verified.account.username,
        pageId: verified.account.pageId,
        verifiedAt: new Date(),
      }
    : {
        transport: 'sandbox' as const,
        credentialKind: null,
        secretEncrypted: null,
        secretLast4: null,
        webhookTokenEncrypted: null,
        externalAccountId: null,
        externalAccountName: null,
        pageId: null,
        verifiedAt: null,
      }),
});

export const verifyTokenOf = (deps: Deps, account: AccountRow) =>
  account.verifyTokenEncrypted ? decryptSecret(deps.env, account.verifyTokenEncrypted) : null;

export const instagramView = (deps: Deps, account: AccountRow): TChannelConnection['instagram'] => ({
  accountId: account.externalAccountId,
  username: account.externalAccountName,
  pageId: account.pageId,
  verifyToken: verifyTokenOf(deps, account),
  webhookVerifiedAt: account.webhookVerifiedAt?.toISOString() ?? null,
});
