import type { TEnabledTool } from '@switchboard/core';
import { index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, subaccounts } from '../tenancy/schema';

/** An HTTP tool the model may call: its input is a JSON schema, fixed values are set by hand. */
export interface AgentToolRow {
  id: string;
  name: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  inputSchema: Record<string, unknown>;
  /** Values the user set manually (field mode manual); the others are determined by the model. */
  fixedValues: Record<string, unknown>;
}

/** An agent ("build"): its prompt, model and settings. */
export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['chat_completion', 'assistants'] })
      .notNull()
      .default('chat_completion'),
    provider: text('provider', { enum: ['offline', 'openai', 'openrouter', 'anthropic', 'compatible'] })
      .notNull()
      .default('offline'),
    model: text('model').notNull().default('offline'),
    systemPrompt: text('system_prompt').notNull().default(''),
    firstMessage: text('first_message').notNull().default(''),
    suggestedResponses: jsonb('suggested_responses').$type<string[]>().notNull().default([]),
    temperature: real('temperature').notNull().default(1),
    maxTokens: integer('max_tokens').notNull().default(2048),
    topP: real('top_p').notNull().default(1),
    frequencyPenalty: real('frequency_penalty').notNull().default(0),
    presencePenalty: real('presence_penalty').notNull().default(0),
    stopSequences: jsonb('stop_sequences').$type<string[]>().notNull().default([]),
    tools: jsonb('tools').$type<AgentToolRow[]>().notNull().default([]),
    /** App tools (Composio actions, MCP server tools) the agent may call: the spec's enabledTools. */
    enabledTools: jsonb('enabled_tools').$type<TEnabledTool[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('agents_subaccount_idx').on(table.subaccountId, table.createdAt)],
);
