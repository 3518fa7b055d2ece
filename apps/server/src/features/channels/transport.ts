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
  /**
   * This send's idempotency key, stored before the call. Twilio's Messages API has no idempotency
   * on create: the key travels in a header all the same, and reconciliation finds what was sent.
   */
  idempotencyKey?: string;
}

/** A send whose outcome was never stored (its run stopped after the provider call, or the answer was lost). */
export interface SendInDoubt {
  /** How the answer names it (the campaign recipient). */
  id: string;
  /** The idempotency key it was sent with (null for sends made before keys were stored). */
  key: string | null;
  channel: TChannelType;
  to: string;
  body: string;
  /** A WhatsApp template send: the provider's text is the approved template's, not ours. */
  template: boolean;
  /** When the send was claimed: the provider's message, if any, is not older. */
  since: Date;
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
  /**
   * Which of these sends in doubt reached the provider, by id, with the provider's id; `knownSids`
   * are the provider ids already stored, never taken for a send in doubt. Throws a TransportError
   * when the provider cannot be asked. Absent where campaigns do not run (Instagram).
   */
  findSent?(sends: SendInDoubt[], knownSids: Set<string>): Promise<Map<string, SendResult>>;
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
  /** The request may have reached the provider before it failed (a timeout, a reset): the send is in doubt. */
  readonly maybeSent: boolean;

  constructor(
    message: string,
    options: {
      transient: boolean;
      httpStatus?: number | null;
      errorCode?: string | null;
      retryAfterMs?: number | null;
      authFailed?: boolean;
      maybeSent?: boolean;
    },
  ) {
    super(message);
    this.name = 'TransportError';
    this.transient = options.transient;
    this.httpStatus = options.httpStatus ?? null;
    this.errorCode = options.errorCode ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.authFailed = options.authFailed ?? false;
    this.maybeSent = options.maybeSent ?? false;
  }
}
