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
