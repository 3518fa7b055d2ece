import { type FeatureRoutes, lazyPage } from '../routing';

const ClientPlanPage = lazyPage(() => import('./client-plan-page'), 'ClientPlanPage');
const ClientSandboxCheckoutPage = lazyPage(() => import('./sandbox-checkout-page'), 'ClientSandboxCheckoutPage');

export const clientPlansRoutes: FeatureRoutes = {
  public: [{ path: '/client-billing/sandbox/:checkoutId', element: <ClientSandboxCheckoutPage /> }],
  connection: [{ path: 'plan', element: <ClientPlanPage /> }],
};
