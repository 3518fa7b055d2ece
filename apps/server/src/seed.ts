import type { TRole } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Db } from './db/client';
import { seedPlan } from './features/billing/seed';
import * as repo from './features/tenancy/repo';
import { memberships, users } from './features/tenancy/schema';
import { newId } from './platform/ids';

export interface AgencySeed {
  accountName: string;
  owner: { email: string; name: string };
  subaccounts: string[];
  /**
   * Extra users, each a member of every sub-account with the given role, or only of the named
   * sub-accounts (`subaccounts`: a client's own login).
   */
  users?: { email: string; name: string; role: TRole; subaccounts?: string[] }[];
  /** Catalog price id of a complimentary plan (billing); without it the account is on the free plan. */
  plan?: string;
}

export interface SeededAgency {
  accountId: string;
  ownerId: string;
  subaccountIds: string[];
  userIds: Record<string, string>;
}

const insertUser = async (db: Db, email: string, name: string) => {
  const id = newId('user');
  await db.insert(users).values({ id, email, name, emailVerifiedAt: new Date() });
  return id;
};

/**
 * Creates an agency with sub-accounts and users (tenancy), on a plan when one is named (billing);
 * the seed script and the tests share it.
 */
export const seedAgency = async (db: Db, seed: AgencySeed): Promise<SeededAgency> =>
  db.transaction(async (tx) => {
    const ownerId = await insertUser(tx as unknown as Db, seed.owner.email, seed.owner.name);
    const [firstName = 'Main', ...rest] = seed.subaccounts;
    const { accountId, subaccountId } = await repo.createAccountWithSubaccount(tx, {
      ownerUserId: ownerId,
      accountName: seed.accountName,
      subaccountName: firstName,
    });
    const subaccountIds = [subaccountId];
    for (const name of rest) {
      subaccountIds.push(
        await repo.insertSubaccount(tx, { accountId, name, ownerUserId: ownerId, creatorUserId: ownerId }),
      );
    }
    const userIds: Record<string, string> = { [seed.owner.email]: ownerId };
    for (const user of seed.users ?? []) {
      const id = await insertUser(tx as unknown as Db, user.email, user.name);
      userIds[user.email] = id;
      const joined = subaccountIds.filter((_sub, index) => {
        const name = seed.subaccounts[index] ?? firstName;
        return !user.subaccounts || user.subaccounts.includes(name);
      });
      if (joined.length === 0) throw new Error(`${user.email} belongs to none of the sub-accounts`);
      await tx
        .insert(memberships)
        .values(joined.map((sub) => ({ id: newId('membership'), subaccountId: sub, userId: id, role: user.role })));
    }
    if (seed.plan) await seedPlan(tx, accountId, seed.plan);
    return { accountId, ownerId, subaccountIds, userIds };
  });

export const DEMO_AGENCY: AgencySeed = {
  accountName: 'Demo Agency',
  owner: { email: 'admin@demo.switchboard.local', name: 'Avery Admin' },
  subaccounts: ['Sunrise Solar', 'Harbor Dental'],
  plan: 'sb_growth_month_3000',
  users: [
    { email: 'member@demo.switchboard.local', name: 'Morgan Member', role: 'member' },
    { email: 'viewer@demo.switchboard.local', name: 'Vic Viewer', role: 'viewer' },
  ],
};

/** Seeds the demo agency on first start only; returns null when it already exists. */
export const seedDemoAgencyOnce = async (db: Db): Promise<SeededAgency | null> => {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_AGENCY.owner.email))
    .limit(1);
  if (existing.length) return null;
  return seedAgency(db, DEMO_AGENCY);
};
