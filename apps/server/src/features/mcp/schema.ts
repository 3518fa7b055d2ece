import type { TMcpServerStatus } from '@switchboard/core';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, subaccounts } from '../tenancy/schema';

/** A tool as an MCP server lists it (`tools/list`), kept so a chat turn never asks the server. */
export interface StoredMcpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server's hints (`readOnlyHint`, `destructiveHint` …): a test runs only tools marked read-only. */
  annotations?: Record<string, unknown>;
}

/** An MCP server (Streamable HTTP) added to a sub-account, with the tools found on it. */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** The headers sent with every request ({name, value}[] as JSON), encrypted like provider keys. */
    headersEncrypted: text('headers_encrypted').notNull(),
    status: text('status').$type<TMcpServerStatus>().notNull(),
    lastError: text('last_error'),
    discoveredTools: jsonb('discovered_tools').$type<StoredMcpTool[]>().notNull().default([]),
    discoveredAt: timestamp('discovered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mcp_servers_subaccount_idx').on(table.subaccountId, table.createdAt)],
);
