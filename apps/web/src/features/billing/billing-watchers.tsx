import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { storage } from '../../lib/storage';
import { useSession } from '../session/session';
import { PENDING_PRICE_KEY, PROMO_KEY, REFERRAL_KEY, startCheckout } from './checkout';
import { SubaccountSelectionDialog } from './subaccount-selection-dialog';

/**
 * Mounted once beside every page: resumes a checkout chosen before signing in, and asks for the
 * active sub-account when the plan allows fewer than the account has.
 */
export const BillingWatchers = () => {
  const { user, currentSubaccount } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    // An affiliate link (?ref= or ?referralId=) is remembered and sent with checkout.
    const params = new URLSearchParams(window.location.search);
    const referral = params.get('referralId') ?? params.get('ref');
    if (referral && /^[\w-]{1,64}$/.test(referral)) storage.set(REFERRAL_KEY, referral);
    // So is a promo code (?promo=), through Get started and sign-up, until checkout applies it.
    const promo = params.get('promo')?.trim().toUpperCase();
    if (promo && /^[A-Z0-9_-]{1,64}$/.test(promo)) storage.set(PROMO_KEY, promo);
  }, []);
  useEffect(() => {
    if (!user || !currentSubaccount) return;
    const priceId = storage.get<string | null>(PENDING_PRICE_KEY, null);
    if (!priceId) return;
    storage.remove(PENDING_PRICE_KEY);
    void startCheckout({ priceId, signedIn: true, navigate });
  }, [user, currentSubaccount, navigate]);
  return user ? <SubaccountSelectionDialog /> : null;
};
