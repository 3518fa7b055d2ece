import { newToken } from '../../platform/ids';
import { type ChannelTransport, type OutboundMessage, type SendResult, TransportError } from './transport';

/**
 * Twilio's test numbers, kept in the sandbox so failures can be tried without an account:
 * +15005550001 is an invalid number (21211), +15005550009 cannot receive SMS (21614).
 */
export const SANDBOX_FAILING_NUMBERS: Record<string, { code: string; message: string }> = {
  '+15005550001': { code: '21211', message: "The 'To' number +15005550001 is not a valid phone number." },
  '+15005550009': { code: '21614', message: "'To' number +15005550009 is not a mobile number." },
};

/** The sandbox phone's sending number when the connection has no sender of its own. */
export const SANDBOX_SENDER = '+15550100000';

/**
 * The sandbox transport: nothing leaves the server. A sent message is stored like any other and
 * shows on the sandbox phone page (live), delivered at once. Labelled "Sandbox" wherever it shows.
 */
export class SandboxTransport implements ChannelTransport {
  readonly kind = 'sandbox' as const;

  async send(message: OutboundMessage): Promise<SendResult> {
    const failure = SANDBOX_FAILING_NUMBERS[message.to];
    if (failure)
      throw new TransportError(failure.message, { transient: false, httpStatus: 400, errorCode: failure.code });
    return { providerSid: `SBX${newToken(12)}`, status: 'delivered' };
  }

  async verify(): Promise<void> {}
}
