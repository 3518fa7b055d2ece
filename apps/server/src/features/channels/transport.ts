import type { TChannelType, TTransportKind } from '@switchboard/core';

/**
 * One interface for every way a connection's messages travel: Twilio (SMS and WhatsApp), Meta's
 * Graph API (Instagram) and the sandbox. Inbound messages and delivery reports come back through
 * `inbound.ts` whichever transport carried them.
 */
export interface OutboundMessage {
  channel: TChannelType;
  /** E.164, without any channel prefix; on Instagram the contact's Instagram-scoped id. */
  to: string;
  body: string;
  mediaUrls?: string[];
  /** An approved WhatsApp template (Twilio Content API) and its numbered variables. */
  contentSid?: string | null;
  contentVariables?: Record<string, string> | null;
  /** Where delivery reports go (the connection's webhook URL). */
  statusCallback?: string;
}

export interface SendResult {
  providerSid: string;
  status: 'queued' | 'sent' | 'delivered';
}

export interface ChannelTransport {
  readonly kind: TTransportKind;
  send(message: OutboundMessage): Promise<SendResult>;
  /** A cheap authenticated call that proves the credentials work (TWILIO_AUTH_FAILED / META_AUTH_FAILED otherwise). */
  verify(): Promise<void>;
}

/**
 * A send that did not happen. `transient` failures (rate limits, the provider's 5xx, the network)
 * are tried again after a backoff that honours `retryAfterMs`; the others are final.
 */
export class TransportError extends Error {
  readonly transient: boolean;
  readonly httpStatus: number | null;
  /** The provider's error code (Twilio's 21211, 21610, 63016 …; Meta's 190, 10/2018278 …), as text. */
  readonly errorCode: string | null;
  readonly retryAfterMs: number | null;
  readonly authFailed: boolean;

  constructor(
    message: string,
    options: {
      transient: boolean;
      httpStatus?: number | null;
      errorCode?: string | null;
      retryAfterMs?: number | null;
      authFailed?: boolean;
    },
  ) {
    super(message);
    this.name = 'TransportError';
    this.transient = options.transient;
    this.httpStatus = options.httpStatus ?? null;
    this.errorCode = options.errorCode ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.authFailed = options.authFailed ?? false;
  }
}
