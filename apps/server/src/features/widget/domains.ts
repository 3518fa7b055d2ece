/**
 * Allowed-domain rules of a widget. An entry is a host name (`example.com`, also matching
 * `www.example.com`), a wildcard (`*.example.com`, any sub-domain), a host with port
 * (`localhost:8080`) or a full origin (`https://example.com`). An empty list allows every site.
 */
export const isOriginAllowed = (allowedDomains: string[], origin: string | null | undefined): boolean => {
  if (allowedDomains.length === 0) return true;
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const hostWithPort = url.host.toLowerCase();
  return allowedDomains.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (/^https?:\/\//.test(entry)) return entry.replace(/\/+$/, '') === url.origin.toLowerCase();
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
    if (entry.includes(':')) return hostWithPort === entry;
    return host === entry || host === `www.${entry}`;
  });
};

/** Only the characters a host, port, scheme or wildcard use: nothing that could end a CSP directive. */
const SOURCE_SAFE = /^[a-z0-9.*:/-]+$/;

/**
 * The CSP frame-ancestors sources of a widget's iframe page: the allowed domains (in the same
 * spellings isOriginAllowed accepts) and this app itself; every site when the list is empty.
 */
export const frameAncestorsOf = (allowedDomains: string[]): string[] => {
  if (allowedDomains.length === 0) return ['*'];
  const sources = new Set<string>(["'self'"]);
  for (const raw of allowedDomains) {
    const entry = raw.trim().toLowerCase().replace(/\/+$/, '');
    if (!entry || !SOURCE_SAFE.test(entry)) continue;
    if (/^https?:\/\//.test(entry)) sources.add(entry);
    else if (entry.startsWith('*.') || entry.includes(':')) {
      sources.add(`https://${entry}`).add(`http://${entry}`);
    } else {
      for (const host of [entry, `www.${entry}`]) sources.add(`https://${host}`).add(`http://${host}`);
    }
  }
  return [...sources];
};
