import type { TChannelStatus, TChannelType } from '@switchboard/core';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { type ChannelTransport, type SendResult, TransportError } from './transport';

/**
 * Whether this server runs the messaging sandbox (connections without credentials, the sandbox
 * phone). Outside production it is the default where nothing real is configured; in production it
 * is off unless MESSAGING_SANDBOX=true, so a connection is never silently a sandbox there.
 */
export const messagingSandboxOn = (env: Pick<Env, 'NODE_ENV' | 'MESSAGING_SANDBOX'>) =>
  env.MESSAGING_SANDBOX ?? env.NODE_ENV !== 'production';

const SANDBOX_OFF = 'The sandbox is off on this server (MESSAGING_SANDBOX)';

/** What a connection of the type needs where the sandbox is off, and the field that takes it. */
const CREDENTIALS = {
  sms: { field: 'twilio', needs: 'the Twilio Account SID, an auth token (or API key) and the sending number' },
  whatsapp: { field: 'twilio', needs: 'the Twilio Account SID, an auth token (or API key) and the WhatsApp number' },
  instagram: { field: 'meta', needs: 'the page access token and the app secret, or use Connect with Meta' },
} as const;

/** A connection without credentials where the sandbox is off: 422 naming what is missing. */
export const requireCredentials = (env: Env, type: TChannelType, hasCredentials: boolean) => {
  if (hasCredentials || messagingSandboxOn(env)) return;
  const { field, needs } = CREDENTIALS[type];
  throw new AppError('VALIDATION_ERROR', `${SANDBOX_OFF}. Enter ${needs}.`, { field });
};

/** Refuses the sandbox phone, and sends through a sandbox connection, where the sandbox is off. */
export const refuseSandboxOff = (env: Env, transport: string) => {
  if (transport !== 'sandbox' || messagingSandboxOn(env)) return;
  throw new AppError('CONFLICT', `${SANDBOX_OFF}: nothing is sent or received. Enter credentials in Settings.`, {
    reason: 'messaging_sandbox_off',
  });
};

/**
 * A sandbox connection on a server whose sandbox is off answers nobody: it is an error with the
 * credentials' code (its action: Update Credentials), never live.
 */
export const sandboxOffState = (type: string) => ({
  status: 'error' as const,
  statusCode: type === 'instagram' ? ('META_AUTH_FAILED' as const) : ('TWILIO_AUTH_FAILED' as const),
  statusMessage: `${SANDBOX_OFF}: nothing is sent. Enter credentials.`,
});

/** The state a connection shows (its stored one, unless it is a sandbox where the sandbox is off). */
export const shownState = (
  env: Env,
  type: TChannelType,
  account: { transport: string; status: TChannelStatus; statusCode: string | null; statusMessage: string | null },
) =>
  account.transport === 'sandbox' && !messagingSandboxOn(env)
    ? sandboxOffState(type)
    : { status: account.status, statusCode: account.statusCode, statusMessage: account.statusMessage };

/** The transport of a sandbox connection where the sandbox is off: every send fails, nothing is reported sent. */
export class SandboxOffTransport implements ChannelTransport {
  readonly kind = 'sandbox' as const;

  async send(): Promise<SendResult> {
    throw new TransportError(`${SANDBOX_OFF}: nothing was sent.`, { transient: false, errorCode: 'SANDBOX_OFF' });
  }

  async verify(): Promise<void> {}

  /** Nothing it was asked to send left the server. */
  async findSent(): Promise<Map<string, SendResult>> {
    return new Map();
  }
}
