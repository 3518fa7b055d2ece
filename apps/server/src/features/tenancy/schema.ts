import { DEFAULT_CLIENT_ACCESS, ROLES, type TClientAccess } from '@switchboard/core';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
  /** The agency's sign-in page for its clients is `/a/{slug}`; lowercase a-z0-9-, 3 to 40. */
  slug: text('slug').notNull().unique(),
  /** Branding its clients see (portal, sign-in page, mails); the name falls back to `name`. */
  brandName: text('brand_name'),
  brandLogoUrl: text('brand_logo_url'),
  brandColor: text('brand_color'),
  emailSenderName: text('email_sender_name'),
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
    /** What the agency lets the client's people (role `client`) do; see packages/core portal. */
    clientAccess: jsonb('client_access').$type<TClientAccess>().notNull().default(DEFAULT_CLIENT_ACCESS),
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
    role: text('role', { enum: ROLES }).notNull(),
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
    role: text('role', { enum: ROLES }).notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('invites_subaccount_email_idx').on(table.subaccountId, table.email),
    index('invites_email_idx').on(table.email),
  ],
);
