import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { publicAccess } from '../../platform/guard';
import { secretLimit, vendorLimit } from '../../platform/request-limits';
import { type Channel, findChannel, webhookTokenOf } from './connections';
import { receiveInbound } from './inbound';
import { safeEqual, verifyTokenOf } from './instagram';
import { type AccountMessage, type MetaWebhookBody, messagesOf, metaSignatureValid } from './meta-events';
import { channelAccounts } from './schema';

const refused = (message: string) => new AppError('WEBHOOK_VALIDATION_FAILED', message, { status: 403 });
const ZParams = z.object({ connectId: z.string().max(64) });
const ZHandshake = z.object({
  'hub.mode': z.string().max(40).optional(),
  'hub.verify_token': z.string().max(200).optional(),
  'hub.challenge': z.string().max(200).optional(),
});

const instagramChannel = async (db: Db, connectId: string) => {
  const channel = await findChannel(db, connectId);
  if (channel?.connection.type !== 'instagram') throw new AppError('WEBHOOK_NOT_FOUND', 'The webhook does not exist.');
  return channel;
};

/** Meta's handshake: the challenge back for the right verify token, else 403. */
const answerHandshake = (query: z.infer<typeof ZHandshake>, expected: string | null | undefined) => {
  const given = query['hub.verify_token'] ?? '';
  if (query['hub.mode'] !== 'subscribe' || !expected || !safeEqual(given, expected))
    throw refused('The verify token did not match.');
  const challenge = query['hub.challenge'] ?? '';
  // Meta's challenge is a number; anything else is not echoed back.
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(challenge)) throw refused('The challenge is missing.');
  return challenge;
};

const parseBody = (raw: Buffer): MetaWebhookBody => {
  let body: MetaWebhookBody;
  try {
    body = JSON.parse(raw.toString('utf8')) as MetaWebhookBody;
  } catch {
    throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook body is not JSON.');
  }
  if (!body || typeof body !== 'object' || !Array.isArray(body.entry))
    throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook carried no entries.');
  return body;
};

const channelOfAccount = async (db: Db, accountId: string) => {
  const [row] = await db
    .select({ id: channelAccounts.connectionId })
    .from(channelAccounts)
    .where(and(eq(channelAccounts.externalAccountId, accountId), eq(channelAccounts.transport, 'meta')))
    .limit(1);
  return row ? findChannel(db, row.id) : null;
};

/**
 * Stores each message with the connection of the account it was sent to. One Meta app delivers
 * every page's events to one callback URL, so a message for another account is taken by that
 * account's connection only when its own app secret also verifies the signature (the same app sent
 * it); otherwise it is ignored. Duplicates (the same mid) are ignored by receiveInbound.
 */
const deliver = async (
  deps: Deps,
  request: FastifyRequest,
  raw: Buffer,
  messages: AccountMessage[],
  own: Channel | null,
) => {
  const targets = new Map<string, Channel | null>();
  if (own?.account.externalAccountId) targets.set(own.account.externalAccountId, own);
  const ignored: string[] = [];
  for (const { accountId, ...message } of messages.slice(0, 1000)) {
    if (!targets.has(accountId)) {
      const channel = await channelOfAccount(deps.db, accountId);
      const secret = channel ? webhookTokenOf(deps, channel.account) : null;
      const sameApp = Boolean(secret && metaSignatureValid(raw, request.headers['x-hub-signature-256'], secret));
      targets.set(accountId, channel && sameApp ? channel : null);
    }
    const target = targets.get(accountId);
    if (target) await receiveInbound(deps, target, message);
    else ignored.push(accountId);
  }
  if (ignored.length) request.log.info({ accounts: ignored }, 'meta webhook messages for unknown accounts ignored');
};

/**
 * Meta's webhooks for Instagram connections. GET is the subscription handshake (hub.mode=subscribe,
 * hub.verify_token, hub.challenge); POST carries direct messages, signed with X-Hub-Signature-256
 * over the raw body with the app secret. A wrong token or signature is refused before anything is
 * read or stored. `/api/webhooks/meta/{connectId}` is a connection's own URL (its verify token, its
 * app secret); `/api/webhooks/meta/app` is the platform app's URL for connections made with "Connect
 * with Meta" (META_WEBHOOK_VERIFY_TOKEN, META_APP_SECRET).
 */
export const metaWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  // The signature covers the exact bytes Meta sent: keep them, parse after checking.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const rawOf = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : null);
  const hidden = { tags: ['channels'], hide: true };
  // The handshake's verify token is a secret that wrong guesses must not find; deliveries are Meta's.
  const handshake = { ...publicAccess(), ...secretLimit(deps.env, 'meta-handshake') };
  const delivery = { ...publicAccess(), ...vendorLimit(deps.env) };

  app.get(
    '/api/webhooks/meta/app',
    { config: handshake, schema: { ...hidden, querystring: ZHandshake } },
    async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(answerHandshake(request.query, deps.env.META_WEBHOOK_VERIFY_TOKEN)),
  );

  app.post('/api/webhooks/meta/app', { config: delivery, schema: hidden }, async (request, reply) => {
    const secret = deps.env.META_APP_SECRET;
    const raw = rawOf(request);
    if (!secret || !raw || !metaSignatureValid(raw, request.headers['x-hub-signature-256'], secret))
      throw refused('The webhook signature did not match.');
    const { messages } = messagesOf(parseBody(raw));
    await deliver(deps, request, raw, messages, null);
    return reply.type('text/plain; charset=utf-8').send('EVENT_RECEIVED');
  });

  app.get(
    '/api/webhooks/meta/:connectId',
    { config: handshake, schema: { ...hidden, params: ZParams, querystring: ZHandshake } },
    async (request, reply) => {
      const channel = await instagramChannel(deps.db, request.params.connectId);
      const challenge = answerHandshake(request.query, verifyTokenOf(deps, channel.account));
      await deps.db
        .update(channelAccounts)
        .set({ webhookVerifiedAt: new Date() })
        .where(eq(channelAccounts.connectionId, channel.connection.id));
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );

  app.post(
    '/api/webhooks/meta/:connectId',
    { config: delivery, schema: { ...hidden, params: ZParams } },
    async (request, reply) => {
      const channel = await instagramChannel(deps.db, request.params.connectId);
      const secret = channel.account.transport === 'meta' ? webhookTokenOf(deps, channel.account) : null;
      const raw = rawOf(request);
      if (!secret || !raw || !metaSignatureValid(raw, request.headers['x-hub-signature-256'], secret))
        throw refused('The webhook signature did not match.');
      const { messages, ignored } = messagesOf(parseBody(raw));
      if (ignored.length)
        request.log.info({ connectionId: channel.connection.id, ignored }, 'meta webhook events ignored');
      await deliver(deps, request, raw, messages, channel);
      return reply.type('text/plain; charset=utf-8').send('EVENT_RECEIVED');
    },
  );
};
