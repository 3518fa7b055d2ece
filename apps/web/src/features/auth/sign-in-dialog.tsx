import { POST_LOGIN_PATH, ZEmail } from '@switchboard/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { storage } from '../../lib/storage';
import { useSession } from '../session/session';
import { LinkSent } from './link-sent';
import { closeSignIn, newUserCheckout, type SignInRequest, useSignInRequest } from './sign-in-store';

export const CHECKOUT_EMAIL_KEY = 'checkout:email';
export const CHECKOUT_CONSENT_KEY = 'checkout:emailConsent';
export const CHECKOUT_RETURN_URL_KEY = 'checkout:returnUrl';

interface CheckUser {
  exists: boolean;
  hasAccess: boolean;
  needsVerification: boolean;
}

const errorText = (error: unknown) =>
  error instanceof ApiError || error instanceof Error ? error.message : 'An error occurred during sign-in';

export const SignInDialog = () => {
  const request = useSignInRequest();
  const open = request !== null;
  return open ? <SignInForm request={request} /> : null;
};

const SignInForm = ({ request }: { request: SignInRequest }) => {
  const { providers } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState(() => storage.get<string>(CHECKOUT_EMAIL_KEY, ''));
  const [consent, setConsent] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const callbackURL = request.returnUrl ?? POST_LOGIN_PATH;

  useEffect(() => {
    setFormError(null);
  }, []);

  const sendLink = async (address: string) => {
    await api('/api/auth/sign-in/magic-link', {
      body: { email: address, callbackURL, emailconsent: consent },
      silent: true,
    });
    setSentTo(address);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setEmailError(null);
    setFormError(null);
    const parsed = ZEmail.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'Email is required');
      return;
    }
    const address = parsed.data;
    setSubmitting(true);
    try {
      storage.set(CHECKOUT_EMAIL_KEY, address);
      storage.set(CHECKOUT_CONSENT_KEY, consent);
      if (providers.directLogin) {
        try {
          const result = await api<{ redirectUrl: string }>('/api/direct-login', {
            body: { email: address, returnUrl: request.returnUrl ?? '/agents' },
            silent: true,
          });
          window.location.assign(result.redirectUrl);
          return;
        } catch {
          // Not an allow-listed address: the normal email sign-in follows.
        }
      }
      const user = await api<CheckUser>(`/api/auth/check-user?email=${encodeURIComponent(address)}`, { silent: true });
      if (user.exists && (user.needsVerification || user.hasAccess)) {
        await sendLink(address);
        return;
      }
      if (user.exists) {
        closeSignIn();
        navigate('/?scrollToPricing=true');
        return;
      }
      try {
        await api('/api/auth/pre-register', { body: { email: address, emailconsent: consent }, silent: true });
      } catch (error) {
        setEmailError(error instanceof ApiError ? error.message : 'Failed to register. Please try again.');
        return;
      }
      const linked = await api<{ hasLinkedAccess: boolean }>(
        `/api/auth/check-linked-access?email=${encodeURIComponent(address)}`,
        { silent: true },
      );
      const checkout = newUserCheckout();
      if (!linked.hasLinkedAccess && checkout) {
        if (request.returnUrl) storage.set(CHECKOUT_RETURN_URL_KEY, request.returnUrl);
        if (await checkout(address, request)) {
          closeSignIn();
          return;
        }
      }
      await sendLink(address);
    } catch (error) {
      setFormError(errorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  const google = () => {
    const params = new URLSearchParams({ callbackURL, emailconsent: String(consent) });
    window.location.assign(`/api/auth/google?${params.toString()}`);
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => (next ? undefined : closeSignIn())}
      title={sentTo ? 'Check your email' : 'Welcome Back'}
      description={sentTo ? undefined : 'Choose how you would like to sign in.'}
    >
      {sentTo ? (
        <LinkSent email={sentTo} onAnother={() => setSentTo(null)} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <div>
            <Label htmlFor="signin-email">Email</Label>
            <Input
              id="signin-email"
              type="email"
              autoComplete="email"
              placeholder="you@agency.com"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? 'signin-email-error' : undefined}
            />
            <FieldError id="signin-email-error">{emailError}</FieldError>
          </div>
          <label className="flex items-start gap-2 text-sm text-muted">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-[var(--primary)]"
              checked={consent}
              onChange={(event) => setConsent(event.target.checked)}
            />
            Send me product news and tips (optional)
          </label>
          <FieldError>{formError}</FieldError>
          <Button type="submit" className="w-full" disabled={submitting}>
            {submitting ? 'Processing...' : 'Continue with Email'}
          </Button>
          {providers.google ? (
            <Button variant="secondary" className="w-full" onClick={google} disabled={submitting}>
              Continue with Google
            </Button>
          ) : null}
          <p className="text-center text-xs text-muted">
            By continuing you agree to our{' '}
            <a className="underline" href="/terms">
              Terms of Service
            </a>{' '}
            and{' '}
            <a className="underline" href="/privacy-policy">
              Privacy Policy
            </a>
            .
          </p>
        </form>
      )}
    </Dialog>
  );
};
