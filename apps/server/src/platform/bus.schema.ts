import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Events of the PostgreSQL event bus too large for a NOTIFY payload (platform/event-bus-pg.ts):
 * the notification names the row, the other processes read it, and rows older than a few minutes
 * are deleted. The table is unlogged: its rows matter only for those few minutes.
 */
export const busPayloads = pgTable(
  'bus_payloads',
  {
    id: text('id').primaryKey(),
    /** The event's JSON text. */
    payload: text('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('bus_payloads_created_idx').on(table.createdAt)],
);
