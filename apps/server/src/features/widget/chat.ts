import type { TWidgetChatRequest, TWidgetChatResponse } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import { incrementGated, utcDay } from '../../platform/counters';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { admitVisitorChannel, answerVisitor } from '../connections/visitor-gate';
import { replyAsAgent } from '../conversations/reply';
import { threads } from '../conversations/schema';
import { isOriginAllowed } from './domains';
import { hostInstructions } from './identity';
import { getLiveWidget, type LiveWidget } from './live-config';

export const WIDGET_ERRORS = {
  notFound: 'Widget not found',
  domain: 'This website is not allowed to use this chat widget',
  noAgent: 'This widget has no agent yet. Choose a build in the designer and deploy it.',
  burst: 'You are sending messages too quickly. Please wait a moment and try again.',
  daily: 'This chat has reached its daily message limit. Please try again tomorrow.',
} as const;

export interface ChatCaller {
  /** The page that uses the widget: the Origin header, or for our own iframe the host page it reports. */
  siteOrigin: string | null;
  ip: string;
}

/** Loads the widget and checks the site and the limits; throws the error the visitor should see. */
export const admitChat = async (
  deps: Deps,
  widgetId: string,
  body: TWidgetChatRequest,
  caller: ChatCaller,
): Promise<LiveWidget> => {
  const widget = await getLiveWidget(deps, widgetId);
  if (!widget) throw new AppError('CONNECTION_NOT_FOUND', WIDGET_ERRORS.notFound);
  if (!isOriginAllowed(widget.settings.allowedDomains, caller.siteOrigin)) {
    throw new AppError('FORBIDDEN', WIDGET_ERRORS.domain, { field: 'origin' });
  }
  if (!widget.agentId) throw new AppError('BUILD_NOT_FOUND', WIDGET_ERRORS.noAgent);
  await admitVisitorChannel(deps, {
    accountId: widget.accountId,
    subaccountId: widget.subaccountId,
    connectionId: widget.connectionId,
  });
  // The burst limits first: a message they refuse must not use up the widget's daily limit,
  // or one visitor could shut the widget for everyone.
  const minute = String(Math.floor(Date.now() / 60_000));
  const counted = await incrementGated(
    deps,
    [
      {
        key: `v:${widget.widgetId}:${body.contactIdentifier}`,
        window: minute,
        ttlSeconds: 120,
        limit: deps.env.WIDGET_VISITOR_BURST_LIMIT,
      },
      {
        key: `i:${widget.widgetId}:${caller.ip}`,
        window: minute,
        ttlSeconds: 120,
        limit: deps.env.WIDGET_IP_BURST_LIMIT,
      },
    ],
    [{ key: `d:${widget.widgetId}`, window: utcDay(), ttlSeconds: 2 * 86_400 }],
  );
  if (!counted.hits) throw new AppError('RATE_LIMIT_EXCEEDED', WIDGET_ERRORS.burst, { reason: 'burst' });
  if ((counted.hits[0] ?? 0) > widget.settings.dailyLimit) {
    throw new AppError('RATE_LIMIT_EXCEEDED', WIDGET_ERRORS.daily, { reason: 'daily_limit' });
  }
  return widget;
};

/** A thread id the visitor sent is used only when it is theirs on this widget; otherwise a new thread starts. */
const ownThread = async (deps: Deps, widget: LiveWidget, threadId: string | null | undefined, contact: string) => {
  if (!threadId) return null;
  const rows = await deps.db
    .select({ id: threads.id })
    .from(threads)
    .where(
      and(
        eq(threads.id, threadId),
        eq(threads.subaccountId, widget.subaccountId),
        eq(threads.channelRef, widget.widgetId),
        eq(threads.contactIdentifier, contact),
      ),
    )
    .limit(1);
  return rows[0]?.id ?? null;
};

/** Stores the visitor's message, then the agent's reply (or nothing while a person handles the thread). */
export const runChat = async (
  deps: Deps,
  widget: LiveWidget,
  body: TWidgetChatRequest,
  options: { onDelta?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<TWidgetChatResponse> => {
  const existing = await ownThread(
    deps,
    widget,
    body.widgetConversationThreadId ?? body.threadId,
    body.contactIdentifier,
  );
  const instructions = body.identity || body.context ? hostInstructions(deps.env, widget.widgetId, body) : undefined;
  const history = (body.history ?? []).filter((entry) => entry.content.trim() !== '');
  // The history ends with the new message; the agent gets it separately.
  const last = history[history.length - 1];
  if (last && last.role === 'user' && last.content.trim() === body.message.trim()) history.pop();
  // The one gate of public channels: a locked (or out-of-allowance) client's widget answers
  // visitors a neutral message, never billing words.
  const target = { accountId: widget.accountId, subaccountId: widget.subaccountId, connectionId: widget.connectionId };
  const result = await answerVisitor(deps, target, () =>
    replyAsAgent(deps, {
      agentId: widget.agentId as string,
      accountId: widget.accountId,
      subaccountId: widget.subaccountId,
      threadId: existing,
      message: body.message,
      channel: widget.type === 'website-block' ? 'website-block' : 'widget',
      channelRef: widget.widgetId,
      contactIdentifier: body.contactIdentifier,
      history: existing ? undefined : history.slice(-20),
      onDelta: options.onDelta,
      signal: options.signal,
      ...(instructions ? { caller: { instructions } } : {}),
    }),
  );
  if (body.identity) {
    // Verified by hostInstructions above: the site says who its signed-in visitor is.
    await publish(deps, 'lead.identified', {
      subaccountId: widget.subaccountId,
      threadId: result.threadId,
      email: body.identity.email ?? null,
      name: body.identity.name ?? null,
      phone: typeof body.identity.phone === 'string' ? body.identity.phone : null,
    }).catch((error: unknown) => deps.log.error({ err: error }, 'Webhook events not queued'));
  }
  return {
    message: result.message,
    threadId: result.threadId,
    widgetConversationThreadId: result.threadId,
    ...(existing ? {} : { newWidgetConversationThreadId: result.threadId }),
    humanHandled: result.humanHandled,
    offline: result.offline,
  };
};
