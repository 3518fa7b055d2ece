import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { checkMedia } from '../channels/media';
import { humanReplyDelivery } from '../channels/outbound';
import { findConnection } from '../connections/repo';
import { appendHumanMessage, getThreadWithMessages, setThreadHandler } from '../conversations/repo';
import * as repo from './repo';

const widgetOf = async (deps: Deps, subaccountId: string, connectionId: string) => {
  const connection = await findConnection(deps.db, connectionId);
  if (!connection || connection.subaccountId !== subaccountId)
    throw new AppError('CONNECTION_NOT_FOUND', 'Widget not found');
  return connection;
};

const threadOf = async (deps: Deps, subaccountId: string, connectionId: string, threadId: string) => {
  const connection = await widgetOf(deps, subaccountId, connectionId);
  const thread = await repo.findWidgetThread(deps.db, subaccountId, connection.widgetId, threadId);
  if (!thread) throw new AppError('THREAD_NOT_FOUND', 'Conversation not found');
  return { connection, thread };
};

export const listThreads = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  page: number,
  limit: number,
) => {
  const connection = await widgetOf(deps, subaccountId, connectionId);
  return { ...(await repo.listWidgetThreads(deps.db, subaccountId, connection.widgetId, page, limit)), page, limit };
};

export const transcript = async (deps: Deps, subaccountId: string, connectionId: string, threadId: string) => {
  const { thread } = await threadOf(deps, subaccountId, connectionId, threadId);
  const full = await getThreadWithMessages(deps.db, subaccountId, thread.threadId);
  const messages = (full?.messages ?? []).map(({ id, role, content, toolCalls, source, createdAt }) => ({
    id,
    role,
    content,
    toolCalls,
    source: source ?? null,
    createdAt,
  }));
  return { thread, messages };
};

/** A person takes the conversation over (the agent stays silent) or hands it back. */
export const setTakeover = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  threadId: string,
  userId: string,
  takeOver: boolean,
) => {
  const { thread } = await threadOf(deps, subaccountId, connectionId, threadId);
  await setThreadHandler(deps.db, { subaccountId, threadId: thread.threadId, userId: takeOver ? userId : null });
  const event = { threadId: thread.threadId, handledByUserId: takeOver ? userId : null };
  await deps.bus.publish(`subaccount:${subaccountId}:conversations`, event);
  await deps.bus.publish(`thread:${thread.threadId}`, event);
  return transcript(deps, subaccountId, connectionId, threadId);
};

/** A person's reply; it takes the conversation over when nobody has yet. */
export const sendHumanReply = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  threadId: string,
  userId: string,
  content: string,
  mediaUrls: string[] = [],
) => {
  const { connection, thread } = await threadOf(deps, subaccountId, connectionId, threadId);
  const messaging = connection.type === 'sms' || connection.type === 'whatsapp' || connection.type === 'instagram';
  if (mediaUrls.length && connection.type !== 'sms' && connection.type !== 'whatsapp')
    throw new AppError('VALIDATION_ERROR', 'Files can be sent on SMS and WhatsApp conversations only.', {
      field: 'mediaUrls',
    });
  for (const url of mediaUrls) await checkMedia(deps, url, 'mediaUrls');
  // SMS, WhatsApp and Instagram answers also go out to the contact (refused before storing when they cannot).
  const send = messaging ? await humanReplyDelivery(deps, connectionId, thread.contactIdentifier, content) : null;
  if (!thread.handledByUserId) await setThreadHandler(deps.db, { subaccountId, threadId: thread.threadId, userId });
  // The transcript shows the attachment as a link under the text.
  const shown = mediaUrls.length
    ? `${content}\n\n${mediaUrls.map((url) => `[Attachment](${url})`).join('\n')}`
    : content;
  const message = await appendHumanMessage(deps, { subaccountId, threadId: thread.threadId, userId, content: shown });
  await send?.({ threadId: thread.threadId, content, mediaUrls, key: `human:${message.id}` });
  return transcript(deps, subaccountId, connectionId, threadId);
};

export { widgetOf };
