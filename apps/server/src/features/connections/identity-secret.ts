import { createHmac } from 'node:crypto';
import { encryptionKey } from '../../platform/crypto';
import type { Env } from '../../platform/env';

/**
 * A website widget's identity secret, for the widget's host API: derived from the installation's
 * encryption key and the widget id, so it needs no storage and is the same on every process. The
 * host site's server signs its user's id with it (widget/identity.ts checks the signature); the
 * connection's admin reads it in the connection's settings.
 */
export const widgetIdentitySecret = (env: Env, widgetId: string): string =>
  createHmac('sha256', encryptionKey(env)).update(`widget-identity:${widgetId}`).digest('hex');
