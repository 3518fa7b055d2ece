import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/schema';
import { connections } from '../connections/schema';

/**
 * Channel connections an agency paused from Launch: while a row exists every public way into the
 * connection (widget, website block, SMS, WhatsApp and Instagram messages) answers
 * CONNECTION_INACTIVE. Resuming deletes the row.
 */
export const connectionPauses = pgTable(
  'connection_pauses',
  {
    connectionId: text('connection_id')
      .primaryKey()
      .references(() => connections.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').notNull(),
    pausedBy: text('paused_by').references(() => users.id, { onDelete: 'set null' }),
    pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('connection_pauses_subaccount_idx').on(table.subaccountId)],
);
