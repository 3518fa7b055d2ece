import {
  fitText,
  type TChannelConnection,
  type TChannelType,
  type TCreateChannelConnectionRequest,
  type TUpdateChannelConnectionRequest,
  TWILIO_WEBHOOK_TOKEN_MISSING,
  type WidgetSettings,
} from '@switchboard/core';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { decryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { TtlCache } from '../../platform/ttl-cache';
import { assertWithinLimit } from '../connections/limits';
import { findAgentInSubaccount } from '../connections/repo';
import { connections } from '../connections/schema';
import { resumeHeld } from './campaign-rounds';
import { claimingAccount, instagramColumns, instagramView, metaTransportOf, verifiedInstagram } from './instagram';
import { messagingSandboxOn, requireCredentials, SandboxOffTransport, shownState } from './sandbox-mode';
import { SANDBOX_SENDER, SandboxTransport } from './sandbox-transport';
import { channelAccounts } from './schema';
import { priceOf, priceToMicros } from './segment-price';
import type { ChannelTransport } from './transport';
import { checkProvider, credentialColumns, needSender, verifyCredentials } from './twilio-credentials';
import { TwilioTransport } from './twilio-transport';

type ConnectionRow = typeof connections.$inferSelect;
type AccountRow = typeof channelAccounts.$inferSelect;

/** An SMS, WhatsApp or Instagram connection with how it sends. */
export interface Channel {
  connection: ConnectionRow & { type: TChannelType };
  account: AccountRow;
}

const TYPE_NAMES = { sms: 'SMS Agent', whatsapp: 'WhatsApp Agent', instagram: 'Instagram Agent' } as const;
const isChannelType = (type: string): type is TChannelType =>
  type === 'sms' || type === 'whatsapp' || type === 'instagram';

/** Where the provider posts this connection's webhooks: Twilio's, or Meta's for Instagram. */
export const webhookUrlOf = (deps: Deps, connectionId: string, type: TChannelType = 'sms') =>
  `${deps.publicUrl.replace(/\/$/, '')}/api/webhooks/${type === 'instagram' ? 'meta' : 'twilio'}/${connectionId}`;

const toView = (deps: Deps, { connection, account }: Channel): TChannelConnection => ({
  connectionId: connection.id,
  subaccountId: connection.subaccountId,
  type: connection.type,
  ...shownState(deps.env, connection.type, account),
  appSlug: account.appSlug,
  connectionName: connection.name,
  buildId: connection.buildId,
  transport: account.transport,
  accountSid: account.accountSid,
  secretLast4: account.secretLast4,
  credentialKind: account.credentialKind,
  sender: {
    phoneNumber: account.senderPhone ?? (account.transport === 'sandbox' ? SANDBOX_SENDER : null),
    messagingServiceSid: account.messagingServiceSid,
  },
  sendRatePerSecond: account.sendRatePerSecond,
  segmentPrice: account.segmentPriceMicros
    ? { amount: priceOf(account.segmentPriceMicros), currency: account.segmentPriceCurrency }
    : null,
  webhookUrl: webhookUrlOf(deps, connection.id, connection.type),
  webhookWarning:
    account.transport === 'twilio' && !account.webhookTokenEncrypted ? TWILIO_WEBHOOK_TOKEN_MISSING : null,
  instagram: connection.type === 'instagram' ? instagramView(deps, account) : null,
  verifiedAt: account.verifiedAt?.toISOString() ?? null,
  createdAt: connection.createdAt.toISOString(),
});

/** The connection and its transport settings, whoever asks (webhooks have no tenant yet). */
export const findChannel = async (db: Db, connectionId: string): Promise<Channel | null> => {
  if (!/^con_[a-z0-9]{1,40}$/.test(connectionId)) return null;
  const rows = await db
    .select({ connection: connections, account: channelAccounts })
    .from(connections)
    .innerJoin(channelAccounts, eq(channelAccounts.connectionId, connections.id))
    .where(eq(connections.id, connectionId))
    .limit(1);
  const row = rows[0];
  if (!row || !isChannelType(row.connection.type)) return null;
  return row as Channel;
};

/** The channel if it belongs to the sub-account; CONNECTION_NOT_FOUND (404) otherwise. */
export const ownedChannel = async (db: Db, subaccountId: string, connectionId: string): Promise<Channel> => {
  const channel = await findChannel(db, connectionId);
  if (!channel || channel.connection.subaccountId !== subaccountId)
    throw new AppError('CONNECTION_NOT_FOUND', 'This SMS, WhatsApp or Instagram connection does not exist.');
  return channel;
};

export const listChannels = async (deps: Deps, subaccountId: string, type: TChannelType) => {
  const rows = await deps.db
    .select({ connection: connections, account: channelAccounts })
    .from(connections)
    .innerJoin(channelAccounts, eq(channelAccounts.connectionId, connections.id))
    .where(and(eq(connections.subaccountId, subaccountId), eq(connections.type, type)))
    .orderBy(desc(connections.createdAt))
    .limit(100);
  return {
    connections: rows.map((row) => toView(deps, row as Channel)),
    sandboxAvailable: messagingSandboxOn(deps.env),
  };
};

export const getChannel = async (deps: Deps, subaccountId: string, connectionId: string) =>
  toView(deps, await ownedChannel(deps.db, subaccountId, connectionId));

const transports = new TtlCache<ChannelTransport>(60_000, 2000);
const sandboxOff = new SandboxOffTransport();

/** The transport a channel sends with (cached per saved version of its settings). */
export const transportOf = (deps: Deps, account: AccountRow): ChannelTransport => {
  if (account.transport === 'sandbox')
    return messagingSandboxOn(deps.env) ? new SandboxTransport(deps.db, account.connectionId) : sandboxOff;
  const key = `${account.connectionId}:${account.updatedAt.getTime()}`;
  const hit = transports.get(key);
  if (hit) return hit;
  if (account.transport === 'meta') {
    const meta = metaTransportOf(deps, account);
    transports.set(key, meta);
    return meta;
  }
  if (!account.accountSid || !account.secretEncrypted)
    throw new AppError('TWILIO_AUTH_FAILED', 'This connection has no Twilio credentials. Enter them again.');
  const secret = decryptSecret(deps.env, account.secretEncrypted);
  const transport = new TwilioTransport({
    accountSid: account.accountSid,
    username: account.credentialKind === 'api_key' ? (account.apiKeySid ?? '') : account.accountSid,
    password: secret,
    senderPhone: account.senderPhone,
    messagingServiceSid: account.messagingServiceSid,
    apiUrl: deps.env.TWILIO_API_URL,
  });
  transports.set(key, transport);
  return transport;
};

/**
 * The provider refused the stored credentials (an expired page token, a revoked auth token): the
 * connection shows the error state with the code and its action until new credentials are saved.
 * With `settingsOf` (the account's `updatedAt` the refused send used), settings saved since then
 * are not marked: new credentials may have arrived while the refused send was on its way.
 */
export const markChannelError = async (
  deps: Deps,
  connectionId: string,
  error: { code: string; message: string },
  settingsOf?: Date,
) => {
  await deps.db
    .update(channelAccounts)
    .set({ status: 'error', statusCode: error.code, statusMessage: error.message.slice(0, 500) })
    .where(
      and(
        eq(channelAccounts.connectionId, connectionId),
        settingsOf ? eq(channelAccounts.updatedAt, settingsOf) : undefined,
      ),
    );
};

/** The secret that signs this connection's webhooks (Twilio auth token, Meta app secret), or null (sandbox, or an API key without it). */
export const webhookTokenOf = (deps: Deps, account: AccountRow): string | null =>
  account.webhookTokenEncrypted ? decryptSecret(deps.env, account.webhookTokenEncrypted) : null;

export const createChannel = async (
  deps: Deps,
  tenant: { subaccountId: string; accountId: string },
  input: TCreateChannelConnectionRequest,
): Promise<TChannelConnection> => {
  const agent = await findAgentInSubaccount(deps.db, input.buildId, tenant.subaccountId);
  if (!agent) throw new AppError('BUILD_NOT_FOUND', 'Pick an agent of this sub-account', { field: 'buildId' });
  checkProvider(input.type, input);
  requireCredentials(deps.env, input.type, Boolean(input.twilio || input.meta));
  if (input.twilio) {
    needSender(input.sender);
    await verifyCredentials(deps, input.twilio);
  }
  const instagram =
    input.type === 'instagram'
      ? instagramColumns(deps, input.meta ? await verifiedInstagram(deps, input.meta) : null, { newToken: true })
      : null;
  const id = newId('connection');
  const now = new Date();
  await claimingAccount(
    deps.db.transaction(async (tx) => {
      await assertWithinLimit(deps, tenant.accountId, 'connections', {
        tx,
        subaccountId: tenant.subaccountId,
        connectionType: input.type,
      });
      await tx.insert(connections).values({
        id,
        subaccountId: tenant.subaccountId,
        accountId: tenant.accountId,
        type: input.type,
        name:
          input.connectionName ??
          `${fitText(agent.name, 80 - TYPE_NAMES[input.type].length - 1)} ${TYPE_NAMES[input.type]}`,
        // Threads of a connection carry its id as their channel ref, as a widget's carry its widget id.
        widgetId: id,
        buildId: agent.id,
        settings: {} as WidgetSettings,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(channelAccounts).values({
        connectionId: id,
        subaccountId: tenant.subaccountId,
        ...(instagram ?? credentialColumns(deps, input.twilio ?? null)),
        senderPhone: input.twilio ? (input.sender?.phoneNumber ?? null) : null,
        messagingServiceSid: input.twilio ? (input.sender?.messagingServiceSid ?? null) : null,
        sendRatePerSecond: input.sendRatePerSecond ?? (input.twilio || input.meta ? 1 : 0),
        updatedAt: now,
      });
    }),
  );
  return getChannel(deps, tenant.subaccountId, id);
};

export const updateChannel = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  input: TUpdateChannelConnectionRequest,
): Promise<TChannelConnection> => {
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  if (input.buildId && !(await findAgentInSubaccount(deps.db, input.buildId, subaccountId)))
    throw new AppError('BUILD_NOT_FOUND', 'Pick an agent of this sub-account', { field: 'buildId' });
  checkProvider(channel.connection.type, input);
  // Back to the sandbox (credentials removed) only where the sandbox runs.
  if (input.twilio === null || input.meta === null) requireCredentials(deps.env, channel.connection.type, false);
  const twilioAfter = input.twilio === undefined ? channel.account.transport === 'twilio' : input.twilio !== null;
  const instagram =
    channel.connection.type === 'instagram' && input.meta !== undefined
      ? instagramColumns(deps, input.meta ? await verifiedInstagram(deps, input.meta, connectionId) : null, {
          newToken: false,
        })
      : null;
  if (input.twilio) {
    needSender(
      input.sender ?? {
        phoneNumber: channel.account.senderPhone,
        messagingServiceSid: channel.account.messagingServiceSid,
      },
    );
    await verifyCredentials(deps, input.twilio);
  }
  const now = new Date();
  await claimingAccount(
    deps.db.transaction(async (tx) => {
      if (input.buildId || input.connectionName)
        await tx
          .update(connections)
          .set({
            ...(input.buildId ? { buildId: input.buildId } : {}),
            ...(input.connectionName ? { name: input.connectionName } : {}),
            updatedAt: now,
          })
          .where(eq(connections.id, connectionId));
      await tx
        .update(channelAccounts)
        .set({
          ...(input.twilio !== undefined ? credentialColumns(deps, input.twilio) : {}),
          ...(instagram ?? {}),
          ...(input.sender && twilioAfter
            ? {
                senderPhone: input.sender.phoneNumber ?? null,
                messagingServiceSid: input.sender.messagingServiceSid ?? null,
              }
            : {}),
          ...(input.twilio === null ? { senderPhone: null, messagingServiceSid: null } : {}),
          ...(input.sendRatePerSecond !== undefined ? { sendRatePerSecond: input.sendRatePerSecond } : {}),
          ...(input.segmentPrice !== undefined
            ? {
                segmentPriceMicros: input.segmentPrice ? priceToMicros(input.segmentPrice.amount) : null,
                segmentPriceCurrency: input.segmentPrice?.currency ?? 'USD',
              }
            : {}),
          updatedAt: now,
        })
        .where(eq(channelAccounts.connectionId, connectionId));
    }),
  );
  // Credentials checked and saved: campaigns held because the provider refused the old ones go on.
  if (input.twilio) await resumeHeld(deps, 'auth_failed', connectionId);
  return getChannel(deps, subaccountId, connectionId);
};
