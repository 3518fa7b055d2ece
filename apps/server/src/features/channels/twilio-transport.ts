import { AsyncLocalStorage } from 'node:async_hooks';
import type twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import type { MessageInstance } from 'twilio/lib/rest/api/v2010/account/message';
import { parseRetryAfter } from '../../platform/jobs';
import {
  type ChannelTransport,
  type OutboundMessage,
  type SendInDoubt,
  type SendResult,
  TransportError,
} from './transport';

export interface TwilioSettings {
  accountSid: string;
  /** The auth token, or the API key SID with its secret. */
  username: string;
  password: string;
  senderPhone: string | null;
  messagingServiceSid: string | null;
  /** TWILIO_API_URL: https://api.twilio.com, or a stand-in in tests. */
  apiUrl: string;
  timeoutMs?: number;
}

/** The header that carries a send's idempotency key (Twilio ignores it; a stand-in may record it). */
export const IDEMPOTENCY_HEADER = 'I-Twilio-Idempotency-Token';
/** The idempotency key of the message being created in this async context. */
const sendKey = new AsyncLocalStorage<string>();

/** Network failures raised before the request was written: nothing reached Twilio. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The SDK's HTTP client, pointed at TWILIO_API_URL, that turns an error answer into a
 * TransportError carrying the status, Twilio's error code and the Retry-After header (the SDK's own
 * RestException drops the headers). The SDK still builds every URL, parameter and signature.
 */
const twilioHttpClass = (sdk: typeof twilio) =>
  class TwilioHttp extends sdk.RequestClient {
    constructor(
      private readonly apiUrl: URL,
      timeoutMs: number,
    ) {
      super({ timeout: timeoutMs, keepAlive: true });
    }

    override async request<T>(opts: RequestClient.RequestOptions<T>) {
      const uri = new URL(opts.uri);
      // Every Twilio product host (api., messaging., content.) goes to the configured origin.
      if (this.apiUrl.hostname !== 'api.twilio.com') {
        uri.protocol = this.apiUrl.protocol;
        uri.host = this.apiUrl.host;
      }
      const key = sendKey.getStore();
      const sent = key && opts.method === 'post' ? { ...opts.headers, [IDEMPOTENCY_HEADER]: key } : opts.headers;
      let response: Awaited<ReturnType<twilio.RequestClient['request']>>;
      try {
        response = await super.request<T>({ ...opts, headers: sent, uri: uri.href });
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        throw new TransportError(`Twilio could not be reached: ${(error as Error).message}`, {
          transient: true,
          // A create that timed out or lost its connection may have been accepted.
          maybeSent: opts.method === 'post' && !NOT_CONNECTED.has(code),
        });
      }
      if (response.statusCode < 400) return response as never;
      const body = (typeof response.body === 'string' ? safeJson(response.body) : response.body) as {
        code?: number;
        message?: string;
      } | null;
      const status = response.statusCode;
      const headers = (response.headers ?? {}) as Record<string, string | undefined>;
      throw new TransportError(body?.message ?? `Twilio answered ${status}`, {
        transient: status === 429 || status >= 500,
        httpStatus: status,
        errorCode: body?.code ? String(body.code) : null,
        retryAfterMs: parseRetryAfter(headers['retry-after'] ?? headers['Retry-After']),
        authFailed: status === 401 || status === 403 || body?.code === 20003,
      });
    }
  };

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

const address = (channel: OutboundMessage['channel'], phone: string) =>
  channel === 'whatsapp' ? `whatsapp:${phone}` : phone;

/** Twilio's list may show a message created a little before our clock said the claim began. */
const CLOCK_SKEW_MS = 60_000;
/** Messages listed per number and query: a campaign sends one message to a number. */
const LIST_LIMIT = 50;
/** Tries of a list request before the provider counts as unreachable. */
const LIST_TRIES = 3;

/**
 * A body as Twilio may store it: its smart encoding replaces typographic quotes and dashes, and
 * spacing is not significant for telling two messages apart.
 */
const comparable = (body: string) =>
  body
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim();

const withRetries = async <T>(call: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const retry = error instanceof TransportError && error.transient && attempt < LIST_TRIES;
      if (!retry) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
};

const statusOf = (status: string): SendResult['status'] =>
  status === 'delivered' || status === 'read' ? 'delivered' : status === 'sent' ? 'sent' : 'queued';

/** Sends SMS and WhatsApp messages with the twilio SDK. */
export class TwilioTransport implements ChannelTransport {
  readonly kind = 'twilio' as const;
  private client: Promise<twilio.Twilio> | null = null;

  constructor(private readonly settings: TwilioSettings) {}

  /** The SDK client, made on first use: the SDK is loaded only by a server that sends through Twilio. */
  private sdk(): Promise<twilio.Twilio> {
    const { settings } = this;
    this.client ??= import('twilio').then(({ default: sdk }) => {
      const TwilioHttp = twilioHttpClass(sdk);
      return sdk(settings.username, settings.password, {
        accountSid: settings.accountSid,
        httpClient: new TwilioHttp(new URL(settings.apiUrl), settings.timeoutMs ?? 15_000),
      });
    });
    return this.client;
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const { senderPhone, messagingServiceSid } = this.settings;
    const client = await this.sdk();
    const create = () =>
      client.messages.create({
        to: address(message.channel, message.to),
        ...(messagingServiceSid ? { messagingServiceSid } : { from: address(message.channel, senderPhone ?? '') }),
        ...(message.contentSid
          ? { contentSid: message.contentSid, contentVariables: JSON.stringify(message.contentVariables ?? {}) }
          : { body: message.body }),
        ...(message.mediaUrls?.length ? { mediaUrl: message.mediaUrls } : {}),
        ...(message.statusCallback ? { statusCallback: message.statusCallback } : {}),
      });
    const created = message.idempotencyKey ? await sendKey.run(message.idempotencyKey, create) : await create();
    return { providerSid: created.sid, status: statusOf(created.status) };
  }

  /**
   * The account's messages to a number from this sender since the claim (GET …/Messages.json with
   * To, From and DateSent>, as the SDK's `messages.list` pages them), and the newest messages to it
   * without the date filter: one still queued at Twilio has no DateSent yet.
   */
  private async listedFor(send: SendInDoubt, since: Date): Promise<MessageInstance[]> {
    const client = await this.sdk();
    const { senderPhone, messagingServiceSid } = this.settings;
    const filter = {
      to: address(send.channel, send.to),
      // A messaging service picks the number from its pool: its messages are told apart by the service.
      ...(messagingServiceSid ? {} : { from: address(send.channel, senderPhone ?? '') }),
    };
    const sent = await withRetries(() => client.messages.list({ ...filter, dateSentAfter: since, limit: LIST_LIMIT }));
    const newest = await withRetries(() => client.messages.list({ ...filter, limit: 20 }));
    return [...sent, ...newest];
  }

  async findSent(sends: SendInDoubt[], knownSids: Set<string>): Promise<Map<string, SendResult>> {
    const { messagingServiceSid } = this.settings;
    const found = new Map<string, SendResult>();
    const taken = new Set(knownSids);
    for (const send of sends) {
      const since = new Date(send.since.getTime() - CLOCK_SKEW_MS);
      const match = (await this.listedFor(send, since)).find(
        (message) =>
          !taken.has(message.sid) &&
          message.direction.startsWith('outbound') &&
          (message.dateCreated?.getTime() ?? 0) >= since.getTime() &&
          (!messagingServiceSid || message.messagingServiceSid === messagingServiceSid) &&
          (send.template || comparable(message.body ?? '') === comparable(send.body)),
      );
      if (!match) continue;
      taken.add(match.sid);
      found.set(send.id, { providerSid: match.sid, status: statusOf(match.status) });
    }
    return found;
  }

  /** GET /2010-04-01/Accounts/{sid}.json: free, and refused with 401 for wrong credentials. */
  async verify(): Promise<void> {
    await (await this.sdk()).api.v2010.accounts(this.settings.accountSid).fetch();
  }
}
