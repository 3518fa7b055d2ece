import {
  DEFAULT_COMPANY_NAME,
  type TPatchSubaccountThemeRequest,
  type TSmsSettings,
  type TSubaccountTheme,
} from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { subaccounts } from '../tenancy/schema';

const load = async (db: Db, subaccountId: string) => {
  const rows = await db.select().from(subaccounts).where(eq(subaccounts.id, subaccountId)).limit(1);
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', 'Sub-account not found');
  return row;
};

export const getTheme = async (db: Db, subaccountId: string): Promise<TSubaccountTheme> => {
  const row = await load(db, subaccountId);
  return { isDarkMode: row.theme === 'dark', theme: row.theme, primaryColor: row.primaryColor };
};

export const patchTheme = async (db: Db, subaccountId: string, patch: TPatchSubaccountThemeRequest) => {
  await db
    .update(subaccounts)
    .set({
      ...(patch.isDarkMode !== undefined ? { theme: patch.isDarkMode ? ('dark' as const) : ('light' as const) } : {}),
      ...(patch.primaryColor ? { primaryColor: patch.primaryColor.toLowerCase() } : {}),
    })
    .where(eq(subaccounts.id, subaccountId));
  return getTheme(db, subaccountId);
};

export const getSmsSettings = async (db: Db, subaccountId: string): Promise<TSmsSettings> => {
  const row = await load(db, subaccountId);
  return {
    companyName: row.companyName ?? (row.name || DEFAULT_COMPANY_NAME),
    logoUrl: row.logoUrl,
    theme: row.theme,
    primaryColor: row.primaryColor,
  };
};

export const patchSmsSettings = async (
  db: Db,
  subaccountId: string,
  patch: { theme?: 'dark' | 'light'; primaryColor?: string; companyName?: string; logoUrl?: string | null },
) => {
  await db
    .update(subaccounts)
    .set({
      ...(patch.theme ? { theme: patch.theme } : {}),
      ...(patch.primaryColor ? { primaryColor: patch.primaryColor.toLowerCase() } : {}),
      ...(patch.companyName ? { companyName: patch.companyName } : {}),
      ...(patch.logoUrl !== undefined ? { logoUrl: patch.logoUrl } : {}),
    })
    .where(eq(subaccounts.id, subaccountId));
  return getSmsSettings(db, subaccountId);
};
