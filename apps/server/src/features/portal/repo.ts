import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, subaccounts } from '../tenancy/schema';

type DbOrTx = Db | Tx;

const brandingColumns = {
  id: accounts.id,
  name: accounts.name,
  slug: accounts.slug,
  brandName: accounts.brandName,
  brandLogoUrl: accounts.brandLogoUrl,
  brandColor: accounts.brandColor,
  emailSenderName: accounts.emailSenderName,
};

export type BrandingRow = {
  id: string;
  name: string;
  slug: string;
  brandName: string | null;
  brandLogoUrl: string | null;
  brandColor: string | null;
  emailSenderName: string | null;
};

export const findBranding = async (db: DbOrTx, accountId: string): Promise<BrandingRow | null> =>
  (await db.select(brandingColumns).from(accounts).where(eq(accounts.id, accountId)).limit(1))[0] ?? null;

export const findBrandingBySlug = async (db: DbOrTx, slug: string): Promise<BrandingRow | null> =>
  (await db.select(brandingColumns).from(accounts).where(eq(accounts.slug, slug)).limit(1))[0] ?? null;

export const updateBranding = async (
  tx: DbOrTx,
  accountId: string,
  values: Partial<Omit<BrandingRow, 'id' | 'name'>>,
): Promise<void> => {
  await tx.update(accounts).set(values).where(eq(accounts.id, accountId));
};

export const findClientAccess = async (db: DbOrTx, subaccountId: string) =>
  (
    await db
      .select({ clientAccess: subaccounts.clientAccess })
      .from(subaccounts)
      .where(eq(subaccounts.id, subaccountId))
      .limit(1)
  )[0]?.clientAccess;
