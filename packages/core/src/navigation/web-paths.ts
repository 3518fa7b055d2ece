/**
 * The first path segments of the web app's pages (apps/web/src/app/router.tsx and the features'
 * routes.tsx). `l` is not a page: it is the server's campaign short links (`/l/{code}`). The server answers other paths with the app's "Page not found" and status 404;
 * `/{connectId}/...` pages start with a prefixed id instead (`sub_…`, `con_…`).
 */
export const WEB_TOP_LEVEL_SEGMENTS = [
  '',
  'a',
  'affiliate',
  'agents',
  'aimentor',
  'apitester',
  'auth',
  'billing',
  'build',
  'client-billing',
  'connect',
  'dashboard',
  'demo',
  'dev',
  'docs',
  'howitworks',
  'integrations',
  'marketplace',
  'new-evaluation',
  'operator',
  'optimize',
  'pricing',
  'privacy-policy',
  'profile',
  'settings',
  'shared',
  'subaccounts',
  'success',
  'support',
  'terms',
  'usage',
] as const;

/** A `{connectId}`: a prefixed id such as `sub_3k9x…` or `con_…`. */
export const CONNECT_ID_PATTERN = /^[a-z]{2,5}_[a-z0-9]{4,40}$/;

/** Whether a path (without query) can be a page of the web app. */
export const isWebAppPath = (pathname: string): boolean => {
  const first = pathname.split('/')[1] ?? '';
  return (WEB_TOP_LEVEL_SEGMENTS as readonly string[]).includes(first) || CONNECT_ID_PATTERN.test(first);
};
