import type { TChannelType, TTwilioCredentials } from '@switchboard/core';
import { encryptSecret, maskTail } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { TransportError } from './transport';
import { TwilioTransport } from './twilio-transport';

/** Twilio credentials of SMS and WhatsApp connections: checked with one call, stored encrypted. */

/** Checks the credentials with one cheap call before anything is saved. */
export const verifyCredentials = async (deps: Deps, credentials: TTwilioCredentials) => {
  const apiKey = Boolean(credentials.apiKeySid && credentials.apiKeySecret);
  const transport = new TwilioTransport({
    accountSid: credentials.accountSid,
    username: apiKey ? (credentials.apiKeySid as string) : credentials.accountSid,
    password: (apiKey ? credentials.apiKeySecret : credentials.authToken) as string,
    senderPhone: null,
    messagingServiceSid: null,
    apiUrl: deps.env.TWILIO_API_URL,
    timeoutMs: 10_000,
  });
  try {
    await transport.verify();
  } catch (error) {
    if (error instanceof TransportError && (error.authFailed || error.httpStatus === 404))
      throw new AppError(
        'TWILIO_AUTH_FAILED',
        'Twilio refused these credentials. Check the Account SID and the token.',
        {
          field: 'twilio.authToken',
        },
      );
    throw new AppError('TWILIO_API_ERROR', `Twilio could not check the credentials: ${(error as Error).message}`);
  }
};

/** The stored form of verified credentials (secrets encrypted). */
export const credentialColumns = (deps: Deps, credentials: TTwilioCredentials | null) => {
  if (!credentials)
    return {
      transport: 'sandbox' as const,
      status: 'live' as const,
      statusCode: null,
      statusMessage: null,
      accountSid: null,
      credentialKind: null,
      apiKeySid: null,
      secretEncrypted: null,
      secretLast4: null,
      webhookTokenEncrypted: null,
      verifiedAt: null,
    };
  const apiKey = Boolean(credentials.apiKeySid && credentials.apiKeySecret);
  const secret = (apiKey ? credentials.apiKeySecret : credentials.authToken) as string;
  return {
    transport: 'twilio' as const,
    status: 'live' as const,
    statusCode: null,
    statusMessage: null,
    accountSid: credentials.accountSid,
    credentialKind: apiKey ? ('api_key' as const) : ('auth_token' as const),
    apiKeySid: apiKey ? (credentials.apiKeySid ?? null) : null,
    secretEncrypted: encryptSecret(deps.env, secret),
    secretLast4: maskTail(secret),
    webhookTokenEncrypted: credentials.authToken ? encryptSecret(deps.env, credentials.authToken) : null,
    verifiedAt: new Date(),
  };
};

/** Twilio credentials belong to SMS and WhatsApp, Meta's to Instagram. */
export const checkProvider = (type: TChannelType, input: { twilio?: unknown; meta?: unknown; sender?: unknown }) => {
  if (type === 'instagram' && (input.twilio || input.sender))
    throw new AppError('VALIDATION_ERROR', 'An Instagram agent connects with Meta credentials, not Twilio', {
      field: 'twilio',
    });
  if (type !== 'instagram' && input.meta)
    throw new AppError('VALIDATION_ERROR', 'Meta credentials are for Instagram agents only', { field: 'meta' });
};

export const needSender = (
  sender: { phoneNumber?: string | null; messagingServiceSid?: string | null } | undefined,
) => {
  if (!sender?.phoneNumber && !sender?.messagingServiceSid)
    throw new AppError('VALIDATION_ERROR', 'Enter the sending phone number or a messaging service SID', {
      field: 'sender.phoneNumber',
    });
};
