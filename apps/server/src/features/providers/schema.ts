import { jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../tenancy/schema';

/** An account's key for an LLM provider, encrypted at rest (AES-256-GCM). */
export const providerKeys = pgTable(
  'provider_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['openai', 'openrouter', 'anthropic', 'compatible'] }).notNull(),
    encryptedKey: text('encrypted_key').notNull(),
    keyTail: text('key_tail').notNull(),
    baseUrl: text('base_url'),
    models: jsonb('models').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('provider_keys_account_provider_idx').on(table.accountId, table.provider)],
);
