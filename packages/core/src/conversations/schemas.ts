import { z } from 'zod';

export const ZChannel = z.enum([
  'test',
  'widget',
  'website-block',
  'demo',
  'api',
  'evaluation',
  'sms',
  'whatsapp',
  'instagram',
]);
export type TChannel = z.infer<typeof ZChannel>;

export const ZMessageSource = z.object({ documentId: z.string(), name: z.string(), excerpt: z.string() });
export type TMessageSource = z.infer<typeof ZMessageSource>;

export const ZToolCallView = z.object({
  name: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  /** A test (evaluation run, test chat, demo) recorded the call without making it: it would call `name` with `input`. */
  notCalled: z.boolean().optional(),
});
export type TToolCallView = z.infer<typeof ZToolCallView>;

export const ZMessageView = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant', 'human']),
  content: z.string(),
  sources: z.array(ZMessageSource),
  toolCalls: z.array(ZToolCallView),
  model: z.string().nullable(),
  offline: z.boolean(),
  /** Set for an outgoing message that a campaign sent (it is part of the recipient's conversation). */
  source: z.enum(['campaign']).optional(),
  createdAt: z.string(),
});
export type TMessageView = z.infer<typeof ZMessageView>;

export const ZThreadView = z.object({
  id: z.string(),
  agentId: z.string(),
  channel: ZChannel,
  channelRef: z.string().nullable(),
  contactIdentifier: z.string().nullable(),
  /** Who the contact is as the channel reports it (Instagram: username and name), when it could be read. */
  contactUsername: z.string().nullable().optional(),
  contactName: z.string().nullable().optional(),
  handledByUserId: z.string().nullable(),
  lastMessage: z.string(),
  messageCount: z.number().int(),
  lastMessageAt: z.string(),
  createdAt: z.string(),
});
export type TThreadView = z.infer<typeof ZThreadView>;

/** A chat turn sent to an agent from the workspace test panel (streamed back as SSE). */
export const ZAgentChatRequest = z.object({
  message: z.string().trim().min(1, 'Type a message').max(8000),
  threadId: z.string().max(64).nullish(),
});
export type TAgentChatRequest = z.infer<typeof ZAgentChatRequest>;

/** POST /api/openai/run-prompt (spec/workspace-widget-demos.md 7). */
export const ZRunPromptRequest = z.object({
  assistantId: z.string().min(1).max(64),
  message: z.string().trim().min(1).max(8000),
  threadId: z.string().max(64).nullish(),
  apiKeyId: z.string().max(64).nullish(),
});
export const ZRunPromptResponse = z.object({ message: z.string(), threadId: z.string(), offline: z.boolean() });

/** POST /api/openrouter/chat (legacy standalone chat with a build). */
export const ZOpenRouterChatRequest = z.object({
  build_id: z.string().min(1).max(64),
  message: z.string().trim().min(1).max(8000),
  provider: z.string().max(40).nullish(),
  model: z.string().max(200).nullish(),
  thread_id: z.string().max(64).nullish(),
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(8000) }))
    .max(100)
    .nullish(),
  userTimezone: z.string().max(64).nullish(),
});
export const ZOpenRouterChatResponse = z.object({
  message: z.string(),
  response: z.string(),
  content: z.string(),
  threadId: z.string(),
  thread_id: z.string(),
  offline: z.boolean(),
});
