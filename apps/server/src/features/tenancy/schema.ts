import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A person: signs in (auth), belongs to sub-accounts with a role (memberships), may own agencies. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  image: text('image'),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  emailConsent: boolean('email_consent').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The agency: the billing entity that owns sub-accounts. */
export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ownerUserId: text('owner_user_id')
    .notNull()
    .references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A client of the agency. */
export const subaccounts = pgTable(
  'subaccounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    companyName: text('company_name'),
    theme: text('theme', { enum: ['dark', 'light'] })
      .notNull()
      .default('dark'),
    primaryColor: text('primary_color').notNull().default('#43c0b8'),
    locked: boolean('locked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('subaccounts_account_idx').on(table.accountId)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['viewer', 'member', 'admin'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('memberships_subaccount_user_idx').on(table.subaccountId, table.userId),
    index('memberships_user_idx').on(table.userId),
  ],
);

/** An invitation by email; it becomes a membership when that address signs in. */
export const invites = pgTable(
  'invites',
  {
    id: text('id').primaryKey(),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['viewer', 'member', 'admin'] }).notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('invites_subaccount_email_idx').on(table.subaccountId, table.email),
    index('invites_email_idx').on(table.email),
  ],
);
