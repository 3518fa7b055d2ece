import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { Spinner } from '../components/ui/card';

/**
 * Each feature exports its routes in three groups: public pages, workspace pages (the
 * workspace sidebar layout) and connection pages (under /{connectId}/, relative paths).
 */
export interface FeatureRoutes {
  public?: RouteObject[];
  workspace?: RouteObject[];
  connection?: RouteObject[];
}

/**
 * A page loaded the first time it is visited, in a chunk of its own, so the app's first load
 * carries only the layouts and the page at hand. `name` is the page's export in its module.
 */
// biome-ignore lint/suspicious/noExplicitAny: a page component of any props
export const lazyPage = <M extends Record<K, ComponentType<any>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
) => lazy(() => load().then((module) => ({ default: module[name] })));

/** Where a lazily loaded page appears: a spinner until its chunk has arrived. */
export const PageSuspense = ({ children }: { children: ReactNode }) => (
  <Suspense
    fallback={
      <div className="flex min-h-40 items-center justify-center p-8">
        <Spinner label="Loading page" />
      </div>
    }
  >
    {children}
  </Suspense>
);
