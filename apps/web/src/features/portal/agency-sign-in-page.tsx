import { type TPortalBranding, ZEmail } from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { NotFoundPage } from '../../app/not-found-page';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { LinkSent } from '../auth/link-sent';
import { useSession } from '../session/session';
import { usePortalBranding } from './api';
import { BrandMark, brandStyle, PoweredBy, useBrandedDocument } from './brand';

/** Where a client lands after signing in: the portal's agents. */
const PORTAL_HOME = '/agents';

/**
 * An agency's sign-in page for its clients: its name, logo and colour, and the email sign-in
 * link (the mail carries the agency's brand). No platform name when its plan is white-label.
 */
export const AgencySignIn = ({ branding }: { branding: TPortalBranding }) => {
  const { user, loading } = useSession();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  useBrandedDocument(branding);

  if (!loading && user) return <Navigate to={PORTAL_HOME} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = ZEmail.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Email is required');
      return;
    }
    setBusy(true);
    try {
      await api('/api/auth/sign-in/magic-link', {
        body: { email: parsed.data, callbackURL: PORTAL_HOME, agency: branding.slug },
        silent: true,
      });
      setSentTo(parsed.data);
    } catch (thrown) {
      setError(thrown instanceof ApiError ? thrown.message : 'An error occurred during sign-in');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main
      className="flex min-h-screen items-center justify-center bg-background p-4 text-foreground"
      style={brandStyle(branding)}
    >
      <Card className="w-full max-w-sm space-y-6">
        <div className="flex flex-col items-center gap-3 text-center">
          <BrandMark branding={branding} className="text-lg" />
          <h1 className="text-xl font-semibold">Sign in to {branding.name}</h1>
        </div>
        {sentTo ? (
          <LinkSent email={sentTo} onAnother={() => setSentTo(null)} />
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            <div>
              <Label htmlFor="portal-email">Email</Label>
              <Input
                id="portal-email"
                type="email"
                autoComplete="email"
                placeholder="you@company.com"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'portal-email-error' : undefined}
              />
              <FieldError id="portal-email-error">{error}</FieldError>
            </div>
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? 'Sending...' : 'Email me a sign-in link'}
            </Button>
          </form>
        )}
        <PoweredBy branding={branding} />
      </Card>
    </main>
  );
};

const Loading = () => (
  <div className="flex min-h-screen items-center justify-center">
    <Spinner label="Loading" />
  </div>
);

/** /a/{agencySlug}: the agency's sign-in page; a slug no agency has is the app's Page not found. */
export const AgencySignInPage = () => {
  const { agencySlug = '' } = useParams();
  const branding = usePortalBranding(agencySlug);
  if (branding.isLoading) return <Loading />;
  if (!branding.data) return <NotFoundPage />;
  return <AgencySignIn branding={branding.data} />;
};

/**
 * `/`: on an agency's verified domain, its sign-in page; anywhere else the given page (the
 * platform's landing page).
 */
export const HomeOrAgencySignIn = ({ fallback }: { fallback: React.ReactNode }) => {
  const branding = usePortalBranding(null);
  if (branding.isLoading) return <Loading />;
  return branding.data ? <AgencySignIn branding={branding.data} /> : fallback;
};
