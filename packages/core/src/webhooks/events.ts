/**
 * The events a sub-account's outbound webhooks can subscribe to, each with what it means and an
 * example of its `data` (the payload is `{ type, timestamp, data }`, the Standard Webhooks shape).
 */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.started',
  'message.received',
  'message.sent',
  'conversation.human_requested',
  'lead.captured',
  'evaluation.completed',
  'campaign.completed',
  'credits.low',
] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event"; endpoints receive it whatever events they chose. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export interface WebhookEventInfo {
  type: TWebhookEventType | typeof WEBHOOK_TEST_EVENT;
  label: string;
  description: string;
  example: Record<string, unknown>;
}

const thread = {
  threadId: 'thr_4k2m9x0c1v8b7n6q',
  agentId: 'agt_0p9o8i7u6y5t4r3e',
  channel: 'website',
  contact: 'visitor_7d1c',
};

export const WEBHOOK_EVENTS: readonly WebhookEventInfo[] = [
  {
    type: 'conversation.started',
    label: 'Conversation started',
    description: 'A visitor or contact sent the first message of a new conversation, on any channel.',
    example: { ...thread, firstMessage: 'Hi, do you have any appointments on Friday?' },
  },
  {
    type: 'message.received',
    label: 'Message received',
    description: 'A visitor or contact sent a message.',
    example: {
      ...thread,
      message: { id: 'mes_1q2w3e4r5t6y7u8i', role: 'user', content: 'Do you take new patients?' },
    },
  },
  {
    type: 'message.sent',
    label: 'Message sent',
    description: 'The agent, or a person of the team who took the conversation over, answered.',
    example: {
      ...thread,
      message: {
        id: 'mes_9o8i7u6y5t4r3e2w',
        role: 'assistant',
        content: 'Yes, we welcome new patients. Shall I book a first visit?',
        model: 'gpt-4o-mini',
      },
    },
  },
  {
    type: 'conversation.human_requested',
    label: 'Human take-over requested',
    description: 'A visitor asked to talk to a person. Take the conversation over from the inbox.',
    example: { ...thread, message: 'Can I speak to a real person please?' },
  },
  {
    type: 'lead.captured',
    label: 'Lead details captured',
    description:
      'A visitor gave an email address or a phone number in the chat, or the site identified a signed-in user. Sent once per conversation and detail.',
    example: { ...thread, email: 'sam@example.com', phone: '+447700900123', name: null, source: 'chat' },
  },
  {
    type: 'evaluation.completed',
    label: 'Evaluation run completed',
    description: 'An evaluation run finished (completed, completed with errors, or stopped).',
    example: {
      runId: 'evl_5t4r3e2w1q0p9o8i',
      evaluationId: 'evl_5t4r3e2w1q0p9o8i',
      name: 'Pre-launch check',
      agentId: 'agt_0p9o8i7u6y5t4r3e',
      status: 'completed',
      offline: false,
      testingModel: 'gpt-4o-mini',
      error: null,
      total: 20,
      passed: 18,
      failed: 2,
      errors: 0,
      passRate: 0.9,
    },
  },
  {
    type: 'campaign.completed',
    label: 'Campaign completed',
    description: 'An SMS or WhatsApp campaign sent to its whole audience.',
    example: {
      campaignId: 'cmp_2w3e4r5t6y7u8i9o',
      connectionId: 'con_8i9o0p1q2w3e4r5t',
      channel: 'sms',
      name: 'Spring check-up reminder',
      recipients: 5000,
      sent: 4980,
      delivered: 4902,
      failed: 18,
      skipped: 2,
      optedOut: 12,
      replied: 310,
    },
  },
  {
    type: 'credits.low',
    label: 'Credits low',
    description: "The account's credit balance fell below an alert threshold.",
    example: { remaining: 480, total: 10000, thresholdPercent: 5 },
  },
];

export const WEBHOOK_TEST_EXAMPLE: WebhookEventInfo = {
  type: WEBHOOK_TEST_EVENT,
  label: 'Test event',
  description: 'Sent when you press "Send test event"; your endpoint receives it whatever events it chose.',
  example: { message: 'This is a test event from Switchboard.' },
};
