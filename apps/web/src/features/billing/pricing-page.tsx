import { findPromotion, type TPricingVariant } from '@switchboard/core';
import { useParams, useSearchParams } from 'react-router';
import { PublicHeader } from '../marketing/public-header';
import { PricingView } from './pricing-view';

/** Stand-alone pricing pages: /pricing, /pricing/secret and /pricing/discount (discount mode, monthly) and /pricing/promo/:code. */
export const PricingPage = ({ variant }: { variant: TPricingVariant }) => {
  const { code } = useParams();
  const [params] = useSearchParams();
  // An unknown promo code shows the default page, never another offer.
  const shown = variant === 'promotional' && !findPromotion(code) ? 'default' : variant;
  return (
    <div className="min-h-screen bg-background text-foreground">
      <PublicHeader />
      <main className="py-12">
        <PricingView
          variant={shown}
          promoCode={shown === 'promotional' ? code : undefined}
          unlock={params.get('unlock')}
        />
      </main>
    </div>
  );
};
