import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing of outbound webhooks by the Standard Webhooks scheme (standardwebhooks.com), which n8n,
 * Make, Zapier and the Standard Webhooks libraries verify: the secret is `whsec_` + base64 key
 * bytes, and `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`.
 */
const PREFIX = 'whsec_';

export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(24).toString('base64')}`;

export const signWebhook = (secret: string, eventId: string, timestampSeconds: number, body: string): string => {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const digest = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
};

/** The three headers of a Standard Webhooks request. */
export const webhookHeaders = (secret: string, eventId: string, body: string, now = Date.now()) => {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, eventId, timestamp, body),
  };
};
