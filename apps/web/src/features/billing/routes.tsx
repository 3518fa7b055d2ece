import type { FeatureRoutes } from '../routing';
import './checkout';
import { SandboxCheckoutPage, SandboxPortalPage, SuccessPage } from './checkout-pages';
import { PricingPage } from './pricing-page';
import { UsagePage } from './usage-page';

export const billingRoutes: FeatureRoutes = {
  public: [
    { path: '/pricing', element: <PricingPage variant="default" /> },
    { path: '/pricing/secret', element: <PricingPage variant="secret" /> },
    { path: '/pricing/promo/:code', element: <PricingPage variant="promotional" /> },
    { path: '/billing/sandbox/portal', element: <SandboxPortalPage /> },
    { path: '/billing/sandbox/:checkoutId', element: <SandboxCheckoutPage /> },
  ],
  workspace: [
    { path: '/usage', element: <UsagePage /> },
    { path: '/success', element: <SuccessPage /> },
  ],
};
