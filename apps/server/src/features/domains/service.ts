/**
 * An agency's custom domain: added (pending), checked over HTTP or DNS, confirmed by an operator
 * for DNS, removed. Every change is published so each process drops its cached mapping.
 */
import type { TAgencyDomain, TPutAccountDomainRequest } from '@switchboard/core';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { defaultOrigin } from '../../platform/http';
import { newToken } from '../../platform/ids';
import { assertFeature, planCapabilities } from '../billing/limits';
import { type CheckResult, checkOverDns, checkOverHttp, txtNameOf, verificationUrl } from './check';
import { publishDomainChange } from './mapping';
import { agencyDomains } from './schema';

export type DomainRow = typeof agencyDomains.$inferSelect;

/** A check that started this long ago and never finished (the process stopped) no longer blocks another. */
const CHECK_CLAIM_MS = 60_000;

const ALREADY_VERIFIED = 'This domain is already verified by another account';

const view = (deps: Deps, row: DomainRow): TAgencyDomain => ({
  hostname: row.hostname,
  method: row.method,
  status: row.status,
  token: row.token,
  httpUrl: verificationUrl(row.hostname, deps.env.DOMAIN_VERIFICATION_PORT),
  txtName: txtNameOf(row.hostname),
  lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
  lastCheckResult: row.lastCheckResult,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const findRow = async (deps: Deps, accountId: string): Promise<DomainRow | undefined> =>
  (await deps.db.select().from(agencyDomains).where(eq(agencyDomains.accountId, accountId)).limit(1))[0];

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string } }).cause;
  return ((error as { code?: string }).code ?? cause?.code) === '23505';
};

export const getDomain = async (deps: Deps, accountId: string) => {
  const [capabilities, row] = await Promise.all([planCapabilities(deps, accountId), findRow(deps, accountId)]);
  return { included: capabilities.features.whitelabel_branding, domain: row ? view(deps, row) : null };
};

/** The platform's own host (PUBLIC_URL's) and the hosts under it belong to no agency. */
const isPlatformHost = (deps: Deps, hostname: string): boolean => {
  const own = new URL(defaultOrigin(deps.env)).hostname.toLowerCase();
  return hostname === own || hostname.endsWith(`.${own}`);
};

const verifiedElsewhere = async (deps: Deps, accountId: string, hostname: string): Promise<boolean> => {
  const [row] = await deps.db
    .select({ accountId: agencyDomains.accountId })
    .from(agencyDomains)
    .where(
      and(
        eq(agencyDomains.hostname, hostname),
        eq(agencyDomains.status, 'verified'),
        ne(agencyDomains.accountId, accountId),
      ),
    )
    .limit(1);
  return Boolean(row);
};

/**
 * Sets the account's domain. The same hostname again keeps its token and status (the method may
 * change); another hostname replaces the old one and starts pending with a new token.
 */
export const putDomain = async (
  deps: Deps,
  accountId: string,
  input: { hostname: string; method: NonNullable<TPutAccountDomainRequest['method']> },
): Promise<TAgencyDomain> => {
  await assertFeature(deps, accountId, 'whitelabel_branding');
  const { hostname, method } = input;
  if (isPlatformHost(deps, hostname)) {
    throw new AppError('VALIDATION_ERROR', "This is the platform's own domain; enter your agency's domain", {
      field: 'hostname',
    });
  }
  if (await verifiedElsewhere(deps, accountId, hostname)) {
    throw new AppError('CONFLICT', ALREADY_VERIFIED, { field: 'hostname' });
  }
  const before = await findRow(deps, accountId);
  const same = sql`${agencyDomains.hostname} = excluded.hostname`;
  const [row] = await deps.db
    .insert(agencyDomains)
    .values({ accountId, hostname, method, token: `sbv_${newToken(24)}`, status: 'pending' })
    .onConflictDoUpdate({
      target: agencyDomains.accountId,
      set: {
        hostname: sql`excluded.hostname`,
        method: sql`excluded.method`,
        token: sql`CASE WHEN ${same} THEN ${agencyDomains.token} ELSE excluded.token END`,
        status: sql`CASE WHEN ${same} THEN ${agencyDomains.status} ELSE 'pending' END`,
        lastCheckedAt: sql`CASE WHEN ${same} THEN ${agencyDomains.lastCheckedAt} END`,
        lastCheckResult: sql`CASE WHEN ${same} THEN ${agencyDomains.lastCheckResult} END`,
        checkStartedAt: sql`CASE WHEN ${same} THEN ${agencyDomains.checkStartedAt} END`,
        verifiedAt: sql`CASE WHEN ${same} THEN ${agencyDomains.verifiedAt} END`,
        verifiedBy: sql`CASE WHEN ${same} THEN ${agencyDomains.verifiedBy} END`,
        failedRechecks: sql`CASE WHEN ${same} THEN ${agencyDomains.failedRechecks} ELSE 0 END`,
        createdAt: sql`CASE WHEN ${same} THEN ${agencyDomains.createdAt} ELSE now() END`,
      },
    })
    .returning();
  await publishDomainChange(deps, [before?.hostname, hostname]);
  return view(deps, row as DomainRow);
};

export const deleteDomain = async (deps: Deps, accountId: string): Promise<void> => {
  const removed = await deps.db
    .delete(agencyDomains)
    .where(eq(agencyDomains.accountId, accountId))
    .returning({ hostname: agencyDomains.hostname });
  if (removed.length === 0) throw new AppError('NOT_FOUND', 'This account has no custom domain');
  await publishDomainChange(
    deps,
    removed.map((row) => row.hostname),
  );
};

/** Checks a claimed domain by its method (a hostname another account verified first fails). */
export const runCheck = async (deps: Deps, claimed: DomainRow): Promise<CheckResult> =>
  (await verifiedElsewhere(deps, claimed.accountId, claimed.hostname))
    ? { ok: false, message: ALREADY_VERIFIED }
    : claimed.method === 'http'
      ? checkOverHttp(deps.env, claimed.hostname, claimed.token)
      : checkOverDns(claimed.hostname, claimed.token);

/** Marks the domain as being checked; undefined when another check of it is running. */
export const claimCheck = async (deps: Deps, accountId: string): Promise<DomainRow | undefined> => {
  const [row] = await deps.db
    .update(agencyDomains)
    .set({ checkStartedAt: new Date() })
    .where(
      and(
        eq(agencyDomains.accountId, accountId),
        or(
          isNull(agencyDomains.checkStartedAt),
          lt(agencyDomains.checkStartedAt, new Date(Date.now() - CHECK_CLAIM_MS)),
        ),
      ),
    )
    .returning();
  return row;
};

/**
 * Writes a check's result onto the claim it was made for (a domain replaced or removed meanwhile
 * is left alone). A verified hostname that another account verified first is recorded as failed.
 */
const recordCheck = async (deps: Deps, claimed: DomainRow, result: CheckResult): Promise<DomainRow | undefined> => {
  const now = new Date();
  const sameClaim = and(
    eq(agencyDomains.accountId, claimed.accountId),
    eq(agencyDomains.token, claimed.token),
    eq(agencyDomains.hostname, claimed.hostname),
  );
  const write = (ok: boolean, message: string) =>
    deps.db
      .update(agencyDomains)
      .set({
        status: ok ? 'verified' : 'failed',
        lastCheckedAt: now,
        lastCheckResult: message,
        checkStartedAt: null,
        verifiedAt: ok ? (claimed.verifiedAt ?? now) : null,
        verifiedBy: ok ? 'check' : null,
        failedRechecks: 0,
      })
      .where(sameClaim)
      .returning();
  try {
    return (await write(result.ok, result.message))[0];
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return (await write(false, ALREADY_VERIFIED))[0];
  }
};

/** Checks the domain by its method now; a check already running answers 409 and records nothing. */
export const verifyDomain = async (deps: Deps, accountId: string): Promise<TAgencyDomain> => {
  await assertFeature(deps, accountId, 'whitelabel_branding');
  const claimed = await claimCheck(deps, accountId);
  if (!claimed) {
    if (!(await findRow(deps, accountId))) throw new AppError('NOT_FOUND', 'Add a domain before verifying it');
    throw new AppError('CONFLICT', 'This domain is being checked already; try again in a moment');
  }
  let result: CheckResult;
  try {
    result = await runCheck(deps, claimed);
  } catch (error) {
    await deps.db
      .update(agencyDomains)
      .set({ checkStartedAt: null })
      .where(and(eq(agencyDomains.accountId, accountId), eq(agencyDomains.token, claimed.token)));
    throw error;
  }
  const recorded = await recordCheck(deps, claimed, result);
  await publishDomainChange(deps, [claimed.hostname]);
  const row = recorded ?? (await findRow(deps, accountId));
  if (!row) throw new AppError('NOT_FOUND', 'This account has no custom domain');
  return view(deps, row);
};

/**
 * An operator confirms a DNS TXT record they checked. With more than one account claiming the
 * hostname, the token of the record says which one.
 */
export const confirmByOperator = async (deps: Deps, hostname: string, token?: string) => {
  const claims = await deps.db
    .select()
    .from(agencyDomains)
    .where(
      and(
        eq(agencyDomains.hostname, hostname.toLowerCase()),
        ne(agencyDomains.status, 'verified'),
        token ? eq(agencyDomains.token, token) : undefined,
      ),
    );
  if (claims.length === 0) throw new AppError('NOT_FOUND', 'No account waits for this domain to be verified');
  if (claims.length > 1) {
    throw new AppError('CONFLICT', 'More than one account claims this domain: give the token the TXT record holds', {
      field: 'token',
    });
  }
  const claim = claims[0] as DomainRow;
  const now = new Date();
  try {
    const [row] = await deps.db
      .update(agencyDomains)
      .set({
        status: 'verified',
        method: 'dns',
        lastCheckedAt: now,
        lastCheckResult: `The TXT record ${txtNameOf(claim.hostname)} was confirmed by an operator.`,
        checkStartedAt: null,
        verifiedAt: now,
        verifiedBy: 'operator',
        failedRechecks: 0,
      })
      .where(and(eq(agencyDomains.accountId, claim.accountId), eq(agencyDomains.token, claim.token)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'No account waits for this domain to be verified');
    await publishDomainChange(deps, [claim.hostname]);
    return { accountId: row.accountId, domain: view(deps, row) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', ALREADY_VERIFIED);
    throw error;
  }
};

/**
 * The token the platform serves on a host's verification path: the verified claim's, else the one
 * pending claim's; null when nobody claims the host, or several accounts do (then only DNS, with
 * its per-account token, can tell them apart).
 */
export const tokenForHost = async (deps: Deps, hostname: string): Promise<string | null> => {
  const claims = await deps.db
    .select({ token: agencyDomains.token, status: agencyDomains.status })
    .from(agencyDomains)
    .where(eq(agencyDomains.hostname, hostname.toLowerCase()))
    .limit(10);
  const verified = claims.find((claim) => claim.status === 'verified');
  if (verified) return verified.token;
  return claims.length === 1 ? (claims[0]?.token ?? null) : null;
};
