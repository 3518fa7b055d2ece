import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../tenancy/schema';

/**
 * An agency's own domain for the client portal (one per account). Links for a request on it use
 * it only once it is verified; a hostname is verified by one account at most.
 */
export const agencyDomains = pgTable(
  'agency_domains',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Lower case, IDNA (punycode), no port or path. */
    hostname: text('hostname').notNull(),
    token: text('token').notNull(),
    method: text('method', { enum: ['http', 'dns'] }).notNull(),
    status: text('status', { enum: ['pending', 'verified', 'failed'] })
      .notNull()
      .default('pending'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastCheckResult: text('last_check_result'),
    /** Set while a check runs: a second check asked for meanwhile is refused, so one is recorded. */
    checkStartedAt: timestamp('check_started_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** How it became verified: by its own check (re-checked daily) or confirmed by an operator (kept). */
    verifiedBy: text('verified_by', { enum: ['check', 'operator'] }),
    /** Failed daily re-checks in a row of a verified domain; at RECHECK_FAILURES_ALLOWED it stops being verified. */
    failedRechecks: integer('failed_rechecks').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('agency_domains_hostname_idx').on(table.hostname),
    uniqueIndex('agency_domains_verified_hostname_idx').on(table.hostname).where(sql`${table.status} = 'verified'`),
  ],
);
