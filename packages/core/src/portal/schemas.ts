import { z } from 'zod';

/**
 * What the agency lets a client (a person of the client business, role `client`) do in its
 * sub-account beyond reading its agents, conversations and usage. Stored on the sub-account.
 */
export const CLIENT_SWITCHES = ['editAgents', 'inbox', 'campaigns'] as const;
export const ZClientSwitch = z.enum(CLIENT_SWITCHES);
export type TClientSwitch = z.infer<typeof ZClientSwitch>;

export const ZClientAccess = z.object({
  /** Edit the sub-account's agents (prompt, settings, knowledge) and test them. */
  editAgents: z.boolean(),
  /** Take over a conversation and reply in the inbox. */
  inbox: z.boolean(),
  /** See and run campaigns and manage contacts. */
  campaigns: z.boolean(),
});
export type TClientAccess = z.infer<typeof ZClientAccess>;

/** A new sub-account's switches: the inbox on, editing agents and campaigns off. */
export const DEFAULT_CLIENT_ACCESS: TClientAccess = { editAgents: false, inbox: true, campaigns: false };

/** The switches of a stored value, with the defaults for what it lacks. */
export const clientAccessOf = (stored: unknown): TClientAccess => {
  const parsed = ZClientAccess.partial().safeParse(stored ?? {});
  return { ...DEFAULT_CLIENT_ACCESS, ...(parsed.success ? parsed.data : {}) };
};

/** PATCH /api/subaccounts/{subaccountId}/client-access: one or more switches. */
export const ZPatchClientAccessRequest = ZClientAccess.partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Send at least one switch' });
export type TPatchClientAccessRequest = z.infer<typeof ZPatchClientAccessRequest>;

/** GET/PATCH /api/subaccounts/{subaccountId}/client-access */
export const ZClientAccessResponse = z.object({ subaccountId: z.string(), access: ZClientAccess });
export type TClientAccessResponse = z.infer<typeof ZClientAccessResponse>;

/**
 * What a route lets a client do: `read` admits a client of the sub-account; `plan` admits one to
 * its own plan with the agency (subscribe, cancel, its alerts and top-up); a switch admits one
 * only while the agency has it on. A route naming none refuses clients.
 */
export type TClientGate = 'read' | 'plan' | TClientSwitch;

/** Path words of the app and of agencies' sign-in pages a slug may not take. */
export const RESERVED_SLUGS = [
  'admin',
  'api',
  'app',
  'auth',
  'billing',
  'dashboard',
  'docs',
  'help',
  'login',
  'new',
  'operator',
  'portal',
  'pricing',
  'settings',
  'signin',
  'signup',
  'static',
  'support',
  'switchboard',
  'www',
] as const;

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** An agency's slug: its sign-in page is `/a/{slug}`. */
export const ZAgencySlug = z
  .string()
  .trim()
  .min(3, 'The slug needs at least 3 characters')
  .max(40, 'The slug may have at most 40 characters')
  .regex(SLUG_PATTERN, 'Use lowercase letters, digits and hyphens (not at the start or end)')
  .refine((value) => !(RESERVED_SLUGS as readonly string[]).includes(value), {
    message: 'This slug is reserved; choose another',
  });

/** A slug made from a name: lowercase a-z0-9 and hyphens, 3 to `max` characters, never reserved. */
export const slugFromName = (name: string, max = 40): string => {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
  if (!base) return 'agency';
  const reserved = (RESERVED_SLUGS as readonly string[]).includes(base);
  return base.length < 3 || reserved ? `${base.slice(0, max - 7)}-agency` : base;
};

export const ZBrandColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be a hex value such as #276d64')
  .transform((value) => value.toLowerCase());

export const ZBrandLogoUrl = z
  .url({ protocol: /^https$/, error: 'Enter the https:// address of the logo' })
  .max(2000, 'The address may have at most 2000 characters');

const ZBrandText = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(80, `${label} may have at most 80 characters`)
    .refine((value) => !/[\r\n<>"]/.test(value), { message: `${label} may not contain line breaks, < > or "` });

/** GET /api/accounts/{accountId}/branding: the agency's branding as its manager edits it. */
export const ZAgencyBranding = z.object({
  accountId: z.string(),
  slug: z.string(),
  brandName: z.string(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string().nullable(),
  emailSenderName: z.string().nullable(),
  /** The plan includes white-label branding: no "Switchboard" is shown to clients. */
  whiteLabel: z.boolean(),
});
export type TAgencyBranding = z.infer<typeof ZAgencyBranding>;

/** PATCH /api/accounts/{accountId}/branding: any of the fields; null clears an optional one. */
export const ZPatchAgencyBrandingRequest = z
  .object({
    slug: ZAgencySlug.optional(),
    brandName: ZBrandText('The brand name').optional(),
    logoUrl: ZBrandLogoUrl.nullable().optional(),
    primaryColor: ZBrandColor.nullable().optional(),
    emailSenderName: ZBrandText('The sender name').nullable().optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type TPatchAgencyBrandingRequest = z.input<typeof ZPatchAgencyBrandingRequest>;

/** GET /api/portal/branding: what a sign-in page or the portal shows of an agency. */
export const ZPortalBranding = z.object({
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string().nullable(),
  whiteLabel: z.boolean(),
});
export type TPortalBranding = z.infer<typeof ZPortalBranding>;

/** GET /api/portal/branding?slug=… (without a slug: the agency of the request's verified domain). */
export const ZPortalBrandingQuery = z.object({ slug: z.string().trim().max(40).optional() });

/** Used where no agency is known, or the plan shows the platform's name. */
export const PLATFORM_NAME = 'Switchboard';

/**
 * GET /api/portal/context: the signed-in person in the current sub-account: whether they see the
 * client portal (role `client`), what the agency lets them do, and the agency's branding.
 */
export const ZPortalContext = z.object({
  subaccountId: z.string(),
  accountId: z.string(),
  isClient: z.boolean(),
  access: ZClientAccess,
  branding: ZPortalBranding,
});
export type TPortalContext = z.infer<typeof ZPortalContext>;
