import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { usePortalBranding } from '../portal/api';
import { BrandMark, brandStyle, PoweredBy, useBrandedDocument } from '../portal/brand';
import { openSignIn } from './sign-in-store';

/**
 * The page a sign-in link opens. The token is spent only by the button (a POST), so mail
 * scanners that follow links do not use it up. A link from an agency's sign-in page (`a`: its
 * slug) shows the agency's brand.
 */
export const ConfirmSignInPage = () => {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const agency = params.get('a');
  const branding = usePortalBranding(agency).data ?? null;
  const brandReady = !agency || branding !== null;
  useBrandedDocument(branding);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : 'This sign-in link is incomplete.');

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ redirectUrl: string }>('/api/auth/confirm', { body: { token }, silent: true });
      window.location.assign(result.redirectUrl);
    } catch (thrown) {
      setError(thrown instanceof ApiError ? thrown.message : 'An error occurred during sign-in');
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center p-4" style={brandStyle(branding)}>
      <Card className="w-full max-w-sm text-center">
        {branding ? <BrandMark branding={branding} className="mb-3 justify-center" /> : null}
        <h1 className="text-xl font-semibold">
          {branding ? `Sign in to ${branding.name}` : brandReady ? 'Sign in to Switchboard' : 'Sign in'}
        </h1>
        <p className="mt-2 text-sm text-muted">Press the button to finish signing in on this device.</p>
        <FieldError>{error}</FieldError>
        <div className="mt-6 space-y-2">
          <Button className="w-full" onClick={confirm} disabled={busy || !token}>
            {busy ? 'Signing in...' : 'Sign in'}
          </Button>
          {error ? (
            <Button
              variant="secondary"
              className="w-full"
              onClick={() => (branding ? window.location.assign(`/a/${branding.slug}`) : openSignIn())}
            >
              Request a new link
            </Button>
          ) : null}
        </div>
        {branding ? <PoweredBy branding={branding} className="mt-4" /> : null}
      </Card>
    </main>
  );
};
