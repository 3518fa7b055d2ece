import { useSyncExternalStore } from 'react';

export interface SignInRequest {
  /** Where to go after signing in (a path on this site). */
  returnUrl?: string;
  /** Scroll to pricing when the user has no access. */
  scrollToPricing?: boolean;
  promoCode?: string;
  /** A price chosen before signing in; checkout starts on it for a new user. */
  priceId?: string;
}

let request: SignInRequest | null = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export const openSignIn = (next: SignInRequest = {}) => {
  request = next;
  emit();
};

export const closeSignIn = () => {
  request = null;
  emit();
};

export const useSignInRequest = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => request,
  );

/** Hooks run when a new user needs checkout; the billing feature registers the real one. */
let startCheckoutForNewUser: ((email: string, signIn: SignInRequest) => Promise<boolean>) | null = null;
export const registerNewUserCheckout = (fn: typeof startCheckoutForNewUser) => {
  startCheckoutForNewUser = fn;
};
export const newUserCheckout = () => startCheckoutForNewUser;
