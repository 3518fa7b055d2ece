import type { TPricingVariant } from '@switchboard/core';
import { useParams } from 'react-router';
import { PublicHeader } from '../marketing/public-header';
import { PricingView } from './pricing-view';

/** Stand-alone pricing pages: /pricing, /pricing/secret (forced monthly) and /pricing/promo/:code. */
export const PricingPage = ({ variant }: { variant: TPricingVariant }) => {
  const { code } = useParams();
  return (
    <div className="min-h-screen bg-background text-foreground">
      <PublicHeader />
      <main className="py-12">
        <PricingView variant={variant} promoCode={code} />
      </main>
    </div>
  );
};
