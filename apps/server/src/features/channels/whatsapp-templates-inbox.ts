import { fillWhatsappTemplate, type TWhatsappTemplateSendRequest, type TWhatsappWindow } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { isConnectionPaused } from '../connections/pauses';
import { appendHumanMessage, setThreadHandler } from '../conversations/repo';
import { threads } from '../conversations/schema';
import { type Channel, ownedChannel } from './connections';
import { lastInboundAt, PAUSED_CHANNEL_MESSAGE, queueOutbound, WHATSAPP_WINDOW_MS } from './outbound';
import { refuseSandboxOff } from './sandbox-mode';
import { isSuppressed, OPTED_OUT_MESSAGE } from './suppressions';
import { approvedTemplate } from './whatsapp-templates';

/** The inbox thread of this messaging connection, with its contact's number; THREAD_NOT_FOUND (404) otherwise. */
const threadOf = async (deps: Deps, subaccountId: string, connectionId: string, threadId: string) => {
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  const [thread] = await deps.db
    .select({ id: threads.id, phone: threads.contactIdentifier, handledByUserId: threads.handledByUserId })
    .from(threads)
    .where(
      and(
        eq(threads.id, threadId),
        eq(threads.subaccountId, subaccountId),
        eq(threads.channelRef, channel.connection.widgetId),
      ),
    )
    .limit(1);
  if (!thread?.phone) throw new AppError('THREAD_NOT_FOUND', 'Conversation not found');
  return { channel, thread: { ...thread, phone: thread.phone } };
};

const windowOf = async (deps: Deps, channel: Channel, phone: string, now = Date.now()): Promise<TWhatsappWindow> => {
  if (channel.connection.type !== 'whatsapp')
    return { applies: false, open: true, lastInboundAt: null, closesAt: null };
  const last = await lastInboundAt(deps, channel.connection.id, phone);
  const closesAt = last ? new Date(last.getTime() + WHATSAPP_WINDOW_MS) : null;
  return {
    applies: true,
    open: Boolean(closesAt && closesAt.getTime() > now),
    lastInboundAt: last?.toISOString() ?? null,
    closesAt: closesAt?.toISOString() ?? null,
  };
};

/** WhatsApp's 24-hour window with the thread's contact: open until 24 hours after they last wrote. */
export const whatsappWindow = async (deps: Deps, subaccountId: string, connectionId: string, threadId: string) => {
  const { channel, thread } = await threadOf(deps, subaccountId, connectionId, threadId);
  return windowOf(deps, channel, thread.phone);
};

/**
 * A person sends an approved template from the inbox (the only way to write once the window has
 * closed): every variable filled, refused before anything is stored when it cannot go out, then
 * stored in the thread as its filled text and queued as ContentSid with ContentVariables.
 */
export const sendWhatsappTemplate = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  threadId: string,
  userId: string,
  request: TWhatsappTemplateSendRequest,
) => {
  const { channel, thread } = await threadOf(deps, subaccountId, connectionId, threadId);
  const template = await approvedTemplate(deps, channel, request.contentSid, 'contentSid');
  const values: Record<string, string> = {};
  for (const { key } of template.variables) {
    const value = request.values[key]?.trim();
    if (!value)
      throw new AppError('VALIDATION_ERROR', `Fill in {{${key}}} before sending.`, { field: `values.${key}` });
    values[key] = value;
  }
  const extra = Object.keys(request.values).find((key) => !(key in values));
  if (extra)
    throw new AppError('VALIDATION_ERROR', `This template has no variable {{${extra}}}.`, { field: `values.${extra}` });
  refuseSandboxOff(deps.env, channel.account.transport);
  if (await isConnectionPaused(deps, channel.connection.id))
    throw new AppError('CONNECTION_INACTIVE', PAUSED_CHANNEL_MESSAGE, { reason: 'connection_paused' });
  if (await isSuppressed(deps.db, channel, thread.phone))
    throw new AppError('MESSAGE_SEND_FAILED', OPTED_OUT_MESSAGE, { status: 409, reason: 'opted_out' });
  const body = fillWhatsappTemplate(template.body, values).text;
  if (!thread.handledByUserId) await setThreadHandler(deps.db, { subaccountId, threadId: thread.id, userId });
  const message = await appendHumanMessage(deps, { subaccountId, threadId: thread.id, userId, content: body });
  const messageIds = await queueOutbound(deps, channel, {
    to: thread.phone,
    parts: [body],
    key: `human-template:${message.id}`,
    threadId: thread.id,
    source: 'person',
    origin: 'live',
    template: { contentSid: template.contentSid, contentVariables: values },
  });
  return {
    body,
    contentSid: template.contentSid,
    messageIds,
    sandbox: channel.account.transport === 'sandbox',
    window: await windowOf(deps, channel, thread.phone),
  };
};
