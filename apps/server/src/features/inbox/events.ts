import type { Deps } from '../../platform/deps';

/** The topic every open inbox of a sub-account listens to (messages, take-overs and the changes below). */
export const conversationsTopic = (subaccountId: string) => `subaccount:${subaccountId}:conversations`;

/**
 * Tells every open inbox of the sub-account that something changed: a thread (`threadId`: its
 * assignee, labels or contact), or the sub-account's labels or canned replies (`kind` alone).
 */
export const publishInboxChange = (
  deps: Deps,
  subaccountId: string,
  event: { kind: 'assignee' | 'labels' | 'contact' | 'canned-replies'; threadId?: string },
) => deps.bus.publish(conversationsTopic(subaccountId), event);
