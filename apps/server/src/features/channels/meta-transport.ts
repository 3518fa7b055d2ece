import { createHmac } from 'node:crypto';
import { parseRetryAfter } from '../../platform/jobs';
import { type ChannelTransport, type OutboundMessage, type SendResult, TransportError } from './transport';

export interface MetaSettings {
  /** The Facebook page's access token (the page linked to the Instagram business account). */
  pageAccessToken: string;
  /** The Meta app's secret: every call carries appsecret_proof, as Meta recommends. */
  appSecret: string;
  /** META_GRAPH_URL: https://graph.facebook.com/v21.0, or a stand-in in tests. */
  graphUrl: string;
  timeoutMs?: number;
}

/** What the page token belongs to: the page and its Instagram business account. */
export interface MetaAccount {
  pageId: string;
  pageName: string | null;
  instagramAccountId: string;
  username: string | null;
}

interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  type?: string;
}

/** The page webhook fields Instagram messaging needs: direct messages, postbacks (buttons), reactions. */
export const MESSAGING_WEBHOOK_FIELDS = ['messages', 'messaging_postbacks', 'message_reactions'];

/** Graph error codes that mean "try again later": throttling (4, 17, 32, 613) and temporary faults (1, 2). */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 613]);

/** appsecret_proof: HMAC-SHA256 of the access token with the app secret, hex. */
export const appSecretProof = (token: string, appSecret: string) =>
  createHmac('sha256', appSecret).update(token).digest('hex');

/** One Graph API call over plain HTTP; an error answer becomes a TransportError with Meta's code. */
export const graphCall = async <T>(
  graphUrl: string,
  path: string,
  options: {
    token?: string;
    appSecret?: string;
    method?: 'GET' | 'POST';
    query?: Record<string, string>;
    body?: unknown;
    timeoutMs?: number;
  },
): Promise<T> => {
  const url = new URL(`${graphUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  if (options.token && options.appSecret)
    url.searchParams.set('appsecret_proof', appSecretProof(options.token, options.appSecret));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      redirect: 'error',
    });
  } catch (error) {
    throw new TransportError(`Meta could not be reached: ${(error as Error).message}`, { transient: true });
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const graphError = (body as { error?: GraphError } | null)?.error;
  if (response.ok && !graphError) return body as T;
  const status = response.status;
  const code = graphError?.code ?? null;
  throw new TransportError(graphError?.message ?? `Meta answered ${status}`, {
    transient: status === 429 || status >= 500 || (code !== null && TRANSIENT_CODES.has(code)),
    httpStatus: status,
    errorCode: code === null ? null : `${code}${graphError?.error_subcode ? `/${graphError.error_subcode}` : ''}`,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after') ?? undefined),
    // 190: the access token is invalid or expired; 102: session; 10 without a subcode, 200: permission.
    authFailed: status === 401 || code === 190 || code === 102 || (code === 10 && !graphError?.error_subcode),
  });
};

/** Sends Instagram direct messages through Meta's Send API (Messenger Platform for Instagram). */
export class MetaTransport implements ChannelTransport {
  readonly kind = 'meta' as const;

  constructor(private readonly settings: MetaSettings) {}

  private call<T>(path: string, options: { method?: 'GET' | 'POST'; query?: Record<string, string>; body?: unknown }) {
    return graphCall<T>(this.settings.graphUrl, path, {
      ...options,
      token: this.settings.pageAccessToken,
      appSecret: this.settings.appSecret,
      timeoutMs: this.settings.timeoutMs,
    });
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const attachment = message.mediaUrls?.[0];
    const result = await this.call<{ recipient_id?: string; message_id?: string }>('me/messages', {
      method: 'POST',
      body: {
        recipient: { id: message.to },
        message: attachment ? { attachment: { type: 'image', payload: { url: attachment } } } : { text: message.body },
      },
    });
    if (!result?.message_id) throw new TransportError('Meta answered without a message id', { transient: false });
    return { providerSid: result.message_id, status: 'sent' };
  }

  /** GET /me with the linked Instagram account: a cheap call that proves the page token works. */
  async account(): Promise<MetaAccount> {
    const page = await this.call<{
      id?: string;
      name?: string;
      instagram_business_account?: { id?: string; username?: string };
    }>('me', { query: { fields: 'id,name,instagram_business_account{id,username}' } });
    if (!page?.id) throw new TransportError('Meta answered without the page', { transient: false });
    const instagram = page.instagram_business_account;
    if (!instagram?.id)
      throw new TransportError(
        'This Facebook page has no Instagram professional account linked. Link one in the page settings.',
        { transient: false, httpStatus: 422, errorCode: 'NO_INSTAGRAM_ACCOUNT' },
      );
    return {
      pageId: page.id,
      pageName: page.name ?? null,
      instagramAccountId: instagram.id,
      username: instagram.username ?? null,
    };
  }

  async verify(): Promise<void> {
    await this.account();
  }

  /**
   * Subscribes the app to the page's messaging webhooks: without it Meta delivers no direct message
   * of the page's Instagram account. Needed once per page; repeating it is harmless.
   */
  async subscribe(pageId: string): Promise<void> {
    const result = await this.call<{ success?: boolean }>(`${pageId}/subscribed_apps`, {
      method: 'POST',
      query: { subscribed_fields: MESSAGING_WEBHOOK_FIELDS.join(',') },
    });
    if (result?.success !== true)
      throw new TransportError('Meta did not confirm the webhook subscription of the page', { transient: false });
  }

  /** The user profile behind an Instagram-scoped id (User Profile API): username and name. */
  async profile(instagramScopedId: string): Promise<{ username: string | null; name: string | null }> {
    const user = await this.call<{ username?: string; name?: string }>(encodeURIComponent(instagramScopedId), {
      query: { fields: 'name,username' },
    });
    return { username: user?.username ?? null, name: user?.name ?? null };
  }
}
