/**
 * The client portal: what an agency lets its clients do (switches on the sub-account) and how it
 * presents itself to them (its branding on the portal, its sign-in page and its mails).
 */
import {
  clientAccessOf,
  PLATFORM_NAME,
  type TAgencyBranding,
  type TClientAccess,
  type TClientAccessResponse,
  type TPatchAgencyBrandingRequest,
  type TPatchClientAccessRequest,
  type TPortalBranding,
  ZAgencySlug,
  ZPatchAgencyBrandingRequest,
} from '@switchboard/core';
import { and, eq, ne } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { MEMBERSHIPS_CHANNEL } from '../../platform/guard';
import type { MailBrand } from '../../platform/mailer';
import { planCapabilities } from '../billing/limits';
import { verifiedAccountOf } from '../domains/mapping';
import { accounts, subaccounts } from '../tenancy/schema';
import * as repo from './repo';

const SLUG_TAKEN = 'This slug is already taken by another agency; choose another';

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string } }).cause;
  return ((error as { code?: string }).code ?? cause?.code) === '23505';
};

/** Whether the agency's plan includes white-label branding (no platform name shown to its clients). */
export const hasWhiteLabel = async (deps: Deps, accountId: string): Promise<boolean> =>
  (await planCapabilities(deps, accountId)).features.whitelabel_branding;

const agencyView = (row: repo.BrandingRow, whiteLabel: boolean): TAgencyBranding => ({
  accountId: row.id,
  slug: row.slug,
  brandName: row.brandName ?? row.name,
  logoUrl: row.brandLogoUrl,
  primaryColor: row.brandColor,
  emailSenderName: row.emailSenderName,
  whiteLabel,
});

const portalView = (row: repo.BrandingRow, whiteLabel: boolean): TPortalBranding => ({
  slug: row.slug,
  name: row.brandName ?? row.name,
  logoUrl: row.brandLogoUrl,
  primaryColor: row.brandColor,
  whiteLabel,
});

export const getAgencyBranding = async (deps: Deps, accountId: string): Promise<TAgencyBranding> => {
  const row = await repo.findBranding(deps.db, accountId);
  if (!row) throw new AppError('NOT_FOUND', 'Not found');
  return agencyView(row, await hasWhiteLabel(deps, accountId));
};

/** Changes the agency's branding; a slug another agency has is a 409 naming the field. */
export const patchAgencyBranding = async (
  deps: Deps,
  accountId: string,
  input: TPatchAgencyBrandingRequest,
): Promise<TAgencyBranding> => {
  const body = ZPatchAgencyBrandingRequest.parse(input);
  if (body.slug !== undefined) {
    const [taken] = await deps.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.slug, body.slug), ne(accounts.id, accountId)))
      .limit(1);
    if (taken) throw new AppError('CONFLICT', SLUG_TAKEN, { field: 'slug' });
  }
  try {
    await repo.updateBranding(deps.db, accountId, {
      ...(body.slug !== undefined ? { slug: body.slug } : {}),
      ...(body.brandName !== undefined ? { brandName: body.brandName } : {}),
      ...(body.logoUrl !== undefined ? { brandLogoUrl: body.logoUrl } : {}),
      ...(body.primaryColor !== undefined ? { brandColor: body.primaryColor } : {}),
      ...(body.emailSenderName !== undefined ? { emailSenderName: body.emailSenderName } : {}),
    });
  } catch (error) {
    // Two agencies asking for the same free slug at once: the unique index keeps one.
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', SLUG_TAKEN, { field: 'slug' });
    throw error;
  }
  return getAgencyBranding(deps, accountId);
};

/** What a sign-in page shows of the agency with this slug; 404 for a slug no agency has. */
export const portalBrandingBySlug = async (deps: Deps, slug: string): Promise<TPortalBranding> => {
  const parsed = ZAgencySlug.safeParse(slug);
  const row = parsed.success ? await repo.findBrandingBySlug(deps.db, parsed.data) : null;
  if (!row) throw new AppError('NOT_FOUND', 'No agency has this sign-in page');
  return portalView(row, await hasWhiteLabel(deps, row.id));
};

/**
 * What the portal shows on a host name: the agency whose verified custom domain it is. Any other
 * host (the platform's own, a pending domain, a forged Host) is no agency's: 404.
 */
export const portalBrandingByHost = async (deps: Deps, hostname: string | null): Promise<TPortalBranding> => {
  const accountId = hostname ? await verifiedAccountOf(deps.db, hostname) : null;
  const row = accountId ? await repo.findBranding(deps.db, accountId) : null;
  if (!row) throw new AppError('NOT_FOUND', 'This address is not an agency portal');
  return portalView(row, await hasWhiteLabel(deps, row.id));
};

/**
 * What a sign-in page shows: on an agency's verified domain that agency's (a slug of another
 * agency there is not found), elsewhere the slug's agency.
 */
export const portalBranding = async (
  deps: Deps,
  input: { slug?: string; hostname: string | null },
): Promise<TPortalBranding> => {
  const onDomain = input.hostname ? await verifiedAccountOf(deps.db, input.hostname) : null;
  if (!onDomain) {
    if (input.slug) return portalBrandingBySlug(deps, input.slug);
    return portalBrandingByHost(deps, null);
  }
  const branding = await portalBrandingOfAccount(deps, onDomain);
  if (input.slug && input.slug !== branding.slug) throw new AppError('NOT_FOUND', 'No agency has this sign-in page');
  return branding;
};

/** The agency's branding as the portal shows it to people of one of its sub-accounts. */
export const portalBrandingOfAccount = async (deps: Deps, accountId: string): Promise<TPortalBranding> => {
  const row = await repo.findBranding(deps.db, accountId);
  if (!row) throw new AppError('NOT_FOUND', 'Not found');
  return portalView(row, await hasWhiteLabel(deps, row.id));
};

/** How a mail to one of the agency's clients presents itself. */
export const mailBrandOf = async (deps: Deps, accountId: string): Promise<MailBrand | null> => {
  const row = await repo.findBranding(deps.db, accountId);
  if (!row) return null;
  const name = row.brandName ?? row.name;
  const whiteLabel = await hasWhiteLabel(deps, accountId);
  return { name, senderName: row.emailSenderName ?? name, whiteLabel, slug: row.slug };
};

/** The account of a slug, when some agency has it. */
export const accountOfSlug = async (deps: Deps, slug: string): Promise<string | null> => {
  const parsed = ZAgencySlug.safeParse(slug);
  return parsed.success ? ((await repo.findBrandingBySlug(deps.db, parsed.data))?.id ?? null) : null;
};

export const platformName = PLATFORM_NAME;

export const getClientAccess = async (deps: Deps, subaccountId: string): Promise<TClientAccessResponse> => ({
  subaccountId,
  access: clientAccessOf(await repo.findClientAccess(deps.db, subaccountId)),
});

/** Turns switches on or off (under the sub-account's row lock); every process drops cached access. */
export const patchClientAccess = async (
  deps: Deps,
  subaccountId: string,
  patch: TPatchClientAccessRequest,
): Promise<TClientAccessResponse> => {
  const access = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ clientAccess: subaccounts.clientAccess })
      .from(subaccounts)
      .where(eq(subaccounts.id, subaccountId))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND', 'Not found');
    const next: TClientAccess = { ...clientAccessOf(row.clientAccess), ...patch };
    await tx.update(subaccounts).set({ clientAccess: next }).where(eq(subaccounts.id, subaccountId));
    return next;
  });
  await deps.bus.publish(MEMBERSHIPS_CHANNEL, { subaccountId });
  return { subaccountId, access };
};
