/**
 * Which host names are an agency's verified custom domain: the only way a request's Host chooses
 * the origin of a link (http.ts linkOriginOf). A short cache per process, kept for both answers,
 * is dropped in every process through the event bus when a domain changes.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { TtlCache } from '../../platform/ttl-cache';
import { agencyDomains } from './schema';

export const DOMAINS_CHANNEL = 'agency-domains';

/** Tells every process that the mapping of these host names changed. */
export const publishDomainChange = (deps: Deps, hostnames: (string | null | undefined)[]) =>
  deps.bus.publish(DOMAINS_CHANNEL, { hostnames: [...new Set(hostnames.filter(Boolean))] });

const findVerified = async (db: Db, hostname: string): Promise<string | null> => {
  const [row] = await db
    .select({ hostname: agencyDomains.hostname })
    .from(agencyDomains)
    .where(and(eq(agencyDomains.hostname, hostname), eq(agencyDomains.status, 'verified')))
    .limit(1);
  return row ? `https://${row.hostname}` : null;
};

/**
 * The account whose verified custom domain the host name is, or null: the only way a request's
 * Host names an agency (its branding on the portal there).
 */
export const verifiedAccountOf = async (db: Db, hostname: string): Promise<string | null> => {
  const [row] = await db
    .select({ accountId: agencyDomains.accountId })
    .from(agencyDomains)
    .where(and(eq(agencyDomains.hostname, hostname.toLowerCase()), eq(agencyDomains.status, 'verified')))
    .limit(1);
  return row?.accountId ?? null;
};

/** The origin of the account's verified domain (`https://{hostname}`), or null: where its clients' links point. */
export const verifiedOriginOfAccount = async (db: Db, accountId: string): Promise<string | null> => {
  const [row] = await db
    .select({ hostname: agencyDomains.hostname })
    .from(agencyDomains)
    .where(and(eq(agencyDomains.accountId, accountId), eq(agencyDomains.status, 'verified')))
    .limit(1);
  return row ? `https://${row.hostname}` : null;
};

export interface DomainMapping {
  /** `https://{hostname}` when the host name is a verified agency domain, else null. */
  originFor(hostname: string): Promise<string | null>;
  close(): void;
}

export const createDomainMapping = (deps: Deps, ttlMs = 30_000): DomainMapping => {
  const cache = new TtlCache<string | null>(ttlMs, 2000);
  const unsubscribe = deps.bus.subscribe(DOMAINS_CHANNEL, (event) => {
    for (const hostname of (event as { hostnames?: string[] }).hostnames ?? []) cache.delete(hostname);
  });
  return {
    originFor: (hostname) => {
      const key = hostname.toLowerCase();
      return cache.getOrLoad(key, () => findVerified(deps.db, key));
    },
    close: unsubscribe,
  };
};
