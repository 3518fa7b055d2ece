import { type FeatureRoutes, lazyPage } from '../routing';
import './checkout';

const SandboxCheckoutPage = lazyPage(() => import('./checkout-pages'), 'SandboxCheckoutPage');
const SandboxPortalPage = lazyPage(() => import('./checkout-pages'), 'SandboxPortalPage');
const SuccessPage = lazyPage(() => import('./checkout-pages'), 'SuccessPage');
const PricingPage = lazyPage(() => import('./pricing-page'), 'PricingPage');
const UsagePage = lazyPage(() => import('./usage-page'), 'UsagePage');

export const billingRoutes: FeatureRoutes = {
  public: [
    { path: '/pricing', element: <PricingPage variant="default" /> },
    { path: '/pricing/secret', element: <PricingPage variant="secret" /> },
    { path: '/pricing/discount', element: <PricingPage variant="discount" /> },
    { path: '/pricing/promo/:code', element: <PricingPage variant="promotional" /> },
    { path: '/billing/sandbox/portal', element: <SandboxPortalPage /> },
    { path: '/billing/sandbox/:checkoutId', element: <SandboxCheckoutPage /> },
  ],
  workspace: [
    { path: '/usage', element: <UsagePage /> },
    { path: '/success', element: <SuccessPage /> },
  ],
};
