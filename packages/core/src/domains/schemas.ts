import { z } from 'zod';

/** The path the platform answers a domain's verification token on, over plain HTTP. */
export const DOMAIN_VERIFICATION_PATH = '/.well-known/switchboard-domain-verification';
/** The TXT record name that carries the token for DNS verification: `_switchboard.{hostname}`. */
export const DOMAIN_TXT_PREFIX = '_switchboard';

export const DOMAIN_METHODS = ['http', 'dns'] as const;
export const ZDomainMethod = z.enum(DOMAIN_METHODS);
export type TDomainMethod = z.infer<typeof ZDomainMethod>;

export const ZDomainStatus = z.enum(['pending', 'verified', 'failed']);
export type TDomainStatus = z.infer<typeof ZDomainStatus>;

const ENTER_DOMAIN = 'Enter the domain only, like portal.your-agency.com';
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain as typed (`Portal.Agency.com`, `https://portal.agency.com/`, `portál.agency.com`) in the
 * form stored and compared: lower case, IDNA (punycode), no trailing dot; null when it is not a
 * plain host name (a port, a path, an address, `localhost`, a single label).
 */
export const normaliseHostname = (raw: string): string | null => {
  const trimmed = raw
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '')
    .replace(/\.$/, '');
  if (!trimmed || /[\s/:@?#[\]\\%]/.test(trimmed)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  if (hostname.length > 253) return null;
  const labels = hostname.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // An address in any spelling (the URL parser writes 2130706433 as 127.0.0.1) ends in digits.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return null;
  return hostname;
};

export const ZDomainHostname = z
  .string()
  .max(300, ENTER_DOMAIN)
  .transform((value, context) => {
    const hostname = normaliseHostname(value);
    if (hostname === null) {
      context.addIssue({ code: 'custom', message: ENTER_DOMAIN });
      return z.NEVER;
    }
    return hostname;
  });

export const ZPutAccountDomainRequest = z.object({
  hostname: ZDomainHostname,
  method: ZDomainMethod.default('http'),
});
export type TPutAccountDomainRequest = z.input<typeof ZPutAccountDomainRequest>;

export const ZAgencyDomain = z.object({
  hostname: z.string(),
  method: ZDomainMethod,
  status: ZDomainStatus,
  /** The value to serve or to publish: the platform answers it at httpUrl; the TXT record holds it. */
  token: z.string(),
  httpUrl: z.string(),
  txtName: z.string(),
  lastCheckedAt: z.string().nullable(),
  /** What the last check found, in words shown to the agency. */
  lastCheckResult: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TAgencyDomain = z.infer<typeof ZAgencyDomain>;

export const ZAccountDomainResponse = z.object({
  /** The account's plan includes white-label branding (custom domains are part of it). */
  included: z.boolean(),
  domain: ZAgencyDomain.nullable(),
});
export type TAccountDomainResponse = z.infer<typeof ZAccountDomainResponse>;

export const ZOperatorConfirmDomainRequest = z
  .object({
    /** Which claim of the hostname the TXT record proves, when more than one account claims it. */
    token: z.string().max(100).optional(),
  })
  .nullish();
