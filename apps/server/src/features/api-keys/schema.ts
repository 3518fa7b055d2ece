import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { subaccounts } from '../tenancy/schema';

/** A platform API key (sk_sb_...), bound to one sub-account; only its hash is stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    keyTail: text('key_tail').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('api_keys_hash_idx').on(table.keyHash),
    index('api_keys_subaccount_idx').on(table.subaccountId),
  ],
);
