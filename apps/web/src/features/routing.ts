import type { RouteObject } from 'react-router';

/**
 * Each feature exports its routes in three groups: public pages, workspace pages (the
 * workspace sidebar layout) and connection pages (under /{connectId}/, relative paths).
 */
export interface FeatureRoutes {
  public?: RouteObject[];
  workspace?: RouteObject[];
  connection?: RouteObject[];
}
