import { createHash } from 'node:crypto';
import type { Env } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { newToken } from '../../platform/ids';

export const GOOGLE_STATE_COOKIE = 'sb_google_state';

export interface GoogleState {
  state: string;
  verifier: string;
  callbackPath: string;
  emailConsent: boolean;
}

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The Google consent URL (authorization code with PKCE) and the state kept in a cookie. */
export const googleAuthorizationUrl = (env: Env, redirectUri: string, callbackPath: string, emailConsent: boolean) => {
  const state: GoogleState = { state: newToken(16), verifier: newToken(32), callbackPath, emailConsent };
  const url = new URL(env.GOOGLE_AUTH_URL);
  url.search = new URLSearchParams({
    client_id: env.GOOGLE_CLIENT_ID ?? '',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: state.state,
    code_challenge: challengeOf(state.verifier),
    code_challenge_method: 'S256',
    prompt: 'select_account',
  }).toString();
  return { url: url.toString(), state };
};

export interface GoogleProfile {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/** Exchanges the code for tokens and reads the verified profile. */
export const exchangeGoogleCode = async (env: Env, code: string, verifier: string, redirectUri: string) => {
  const tokenResponse = await fetch(env.GOOGLE_TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      code,
      client_id: env.GOOGLE_CLIENT_ID ?? '',
      client_secret: env.GOOGLE_CLIENT_SECRET ?? '',
      redirect_uri: redirectUri,
      grant_type: 'authorization_code',
      code_verifier: verifier,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!tokenResponse.ok) throw new AppError('UNAUTHORIZED', 'Google sign-in failed. Please try again.');
  const tokens = (await tokenResponse.json()) as { access_token?: string };
  if (!tokens.access_token) throw new AppError('UNAUTHORIZED', 'Google sign-in failed. Please try again.');
  const profileResponse = await fetch(env.GOOGLE_USERINFO_URL, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!profileResponse.ok) throw new AppError('UNAUTHORIZED', 'Google sign-in failed. Please try again.');
  const profile = (await profileResponse.json()) as GoogleProfile;
  if (!profile.sub || !profile.email || profile.email_verified === false) {
    throw new AppError('UNAUTHORIZED', 'Your Google account has no verified email address.');
  }
  return { ...profile, email: profile.email.trim().toLowerCase() };
};
