type Json = Record<string, unknown>;
export interface AgencyStripeStub {
  url: string;
  /** Keys answered 200; any other key is refused with 401. */
  keys: Set<string>;
  requests: {
    method: string;
    path: string;
    key: string;
    form: URLSearchParams;
  }[];
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoiceItems: Json[];
  /** Saved cards by customer id, and off-session payments made. */
  cards: Map<string, Json>;
  paymentIntents: Json[];
  /** Answer off-session payments with a card decline when set. */
  failures: {
    declineCharges: boolean;
  };
  /** Milliseconds each checkout session creation takes (to let concurrent requests overlap). */
  sessionDelayMs: number;
  /** Completes an open session: a subscription with the session's metadata and a first period. */
  complete(sessionId: string): Json;
  close(): Promise<void>;
}
/** Listens on `listenPort` (a free one by default; the browser journey's server expects a fixed one). */
export declare const startAgencyStripeStub: (keys: string[], listenPort?: number) => Promise<AgencyStripeStub>;
