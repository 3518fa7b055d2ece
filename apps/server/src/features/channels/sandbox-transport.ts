import { inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newToken } from '../../platform/ids';
import { channelSandboxLog } from './schema';
import {
  type ChannelTransport,
  type OutboundMessage,
  type SendInDoubt,
  type SendResult,
  TransportError,
} from './transport';

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

/** How long the sandbox's send log is kept: reconciliation looks at sends of runs that just stopped. */
export const SANDBOX_LOG_DAYS = 7;

/**
 * The sandbox transport: nothing leaves the server. A sent message is stored like any other and
 * shows on the sandbox phone page (live), delivered at once. Labelled "Sandbox" wherever it shows.
 * It keeps its own log of what it sent, by idempotency key: a send with a key already logged answers
 * the logged id (the same send), and sends in doubt are found there.
 */
export class SandboxTransport implements ChannelTransport {
  readonly kind = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    private readonly connectionId: string,
  ) {}

  async send(message: OutboundMessage): Promise<SendResult> {
    const failure = SANDBOX_FAILING_NUMBERS[message.to];
    if (failure)
      throw new TransportError(failure.message, { transient: false, httpStatus: 400, errorCode: failure.code });
    const providerSid = `SBX${newToken(12)}`;
    if (!message.idempotencyKey) return { providerSid, status: 'delivered' };
    const [logged] = await this.db
      .insert(channelSandboxLog)
      .values({
        idempotencyKey: message.idempotencyKey,
        connectionId: this.connectionId,
        contactPhone: message.to,
        providerSid,
      })
      .onConflictDoUpdate({ target: channelSandboxLog.idempotencyKey, set: { idempotencyKey: message.idempotencyKey } })
      .returning({ providerSid: channelSandboxLog.providerSid });
    return { providerSid: logged?.providerSid ?? providerSid, status: 'delivered' };
  }

  async verify(): Promise<void> {}

  async findSent(sends: SendInDoubt[]): Promise<Map<string, SendResult>> {
    const idOf = new Map(sends.flatMap((send) => (send.key ? [[send.key, send.id] as const] : [])));
    if (!idOf.size) return new Map();
    const rows = await this.db
      .select({ key: channelSandboxLog.idempotencyKey, providerSid: channelSandboxLog.providerSid })
      .from(channelSandboxLog)
      .where(inArray(channelSandboxLog.idempotencyKey, [...idOf.keys()]));
    return new Map(
      rows.map((row) => [idOf.get(row.key) as string, { providerSid: row.providerSid, status: 'delivered' as const }]),
    );
  }
}

/** Drops the sandbox's log entries older than SANDBOX_LOG_DAYS. */
export const pruneSandboxLog = async (db: Db) => {
  await db
    .delete(channelSandboxLog)
    .where(lt(channelSandboxLog.createdAt, new Date(Date.now() - SANDBOX_LOG_DAYS * 86_400_000)));
};
