import type twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { parseRetryAfter } from '../../platform/jobs';
import { type ChannelTransport, type OutboundMessage, type SendResult, TransportError } from './transport';

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
      let response: Awaited<ReturnType<twilio.RequestClient['request']>>;
      try {
        response = await super.request<T>({ ...opts, uri: uri.href });
      } catch (error) {
        throw new TransportError(`Twilio could not be reached: ${(error as Error).message}`, { transient: true });
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
    const created = await (await this.sdk()).messages.create({
      to: address(message.channel, message.to),
      ...(messagingServiceSid ? { messagingServiceSid } : { from: address(message.channel, senderPhone ?? '') }),
      ...(message.contentSid
        ? { contentSid: message.contentSid, contentVariables: JSON.stringify(message.contentVariables ?? {}) }
        : { body: message.body }),
      ...(message.mediaUrls?.length ? { mediaUrl: message.mediaUrls } : {}),
      ...(message.statusCallback ? { statusCallback: message.statusCallback } : {}),
    });
    const status = created.status === 'delivered' ? 'delivered' : created.status === 'sent' ? 'sent' : 'queued';
    return { providerSid: created.sid, status };
  }

  /** GET /2010-04-01/Accounts/{sid}.json: free, and refused with 401 for wrong credentials. */
  async verify(): Promise<void> {
    await (await this.sdk()).api.v2010.accounts(this.settings.accountSid).fetch();
  }
}
