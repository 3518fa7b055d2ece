import { useEffect, useRef } from 'react';
import { api } from '../../lib/api';
import { storage } from '../../lib/storage';
import { REFERRAL_KEY } from '../billing/checkout';
import { useSession } from '../session/session';

/**
 * Mounted beside every page: once signed in, the remembered referral code (a visit with ?ref=,
 * kept by the billing watchers and also sent with checkout) attributes the new agency to its
 * affiliate. The server accepts it only for an agency created recently, never one's own code.
 */
export const AffiliateWatcher = () => {
  const { user } = useSession();
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!user) return;
    const code = storage.get<string | null>(REFERRAL_KEY, null);
    if (!code || sent.current === `${user.id}:${code}`) return;
    sent.current = `${user.id}:${code}`;
    api('/api/affiliate/attribute', { body: { code }, silent: true }).catch(() => undefined);
  }, [user]);
  return null;
};
