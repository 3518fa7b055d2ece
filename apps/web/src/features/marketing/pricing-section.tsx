import { PricingView } from '../billing/pricing-view';

/** The home page's pricing section: the default pricing variant. */
export const PricingSection = () => <PricingView variant="default" />;
