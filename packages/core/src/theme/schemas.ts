import { z } from 'zod';

export const THEMES = ['dark', 'light'] as const;
export const ZTheme = z.enum(THEMES);
export type TTheme = z.infer<typeof ZTheme>;

export const ZHexColor = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'Colour must be a hex value such as #276d64');

export const DEFAULT_SMS_PRIMARY_COLOR = '#43c0b8';
export const DEFAULT_THEME_COLOR = '#276d64';
export const DARK_BACKGROUND = '#0d0e12';
export const LIGHT_BACKGROUND = '#f8fafc';
export const DEFAULT_COMPANY_NAME = 'SMS Dashboard';

/** GET /api/sms/{connectId}/settings */
export const ZSmsSettings = z.object({
  companyName: z.string(),
  logoUrl: z.string().nullable(),
  theme: ZTheme,
  primaryColor: z.string(),
});
export type TSmsSettings = z.infer<typeof ZSmsSettings>;

/** PATCH /api/sms/{connectId}/settings: a theme or a primary colour. */
export const ZPatchSmsSettingsRequest = z
  .object({
    theme: ZTheme.optional(),
    primaryColor: ZHexColor.optional(),
    companyName: z.string().trim().min(1).max(80).optional(),
    logoUrl: z.url().max(2000).nullable().optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });

/** GET /api/subaccounts/{subaccountId}/theme */
export const ZSubaccountTheme = z.object({
  isDarkMode: z.boolean(),
  theme: ZTheme,
  primaryColor: z.string(),
});
export type TSubaccountTheme = z.infer<typeof ZSubaccountTheme>;

/** PATCH /api/subaccounts/{subaccountId}/theme: {isDarkMode} or {primaryColor}. */
export const ZPatchSubaccountThemeRequest = z
  .object({ isDarkMode: z.boolean().optional(), primaryColor: ZHexColor.optional() })
  .strict()
  .refine((value) => value.isDarkMode !== undefined || value.primaryColor !== undefined, {
    message: 'Send isDarkMode or primaryColor',
  });
export type TPatchSubaccountThemeRequest = z.infer<typeof ZPatchSubaccountThemeRequest>;
