import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { publicAccess } from '../../platform/guard';
import { findChannel, webhookTokenOf } from './connections';
import { receiveInbound } from './inbound';
import { safeEqual, verifyTokenOf } from './instagram';
import { type MetaWebhookBody, messagesOf, metaSignatureValid } from './meta-events';
import { channelAccounts } from './schema';

const refused = (message: string) => new AppError('WEBHOOK_VALIDATION_FAILED', message, { status: 403 });
const ZParams = z.object({ connectId: z.string().max(64) });

const instagramChannel = async (db: Parameters<typeof findChannel>[0], connectId: string) => {
  const channel = await findChannel(db, connectId);
  if (channel?.connection.type !== 'instagram') throw new AppError('WEBHOOK_NOT_FOUND', 'The webhook does not exist.');
  return channel;
};

/**
 * Meta's webhooks for Instagram connections. GET is the subscription handshake (hub.mode=subscribe,
 * hub.verify_token, hub.challenge); POST carries direct messages, signed with X-Hub-Signature-256
 * over the raw body with the app secret. A wrong token or signature is refused before anything is
 * read or stored.
 */
export const metaWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  // The signature covers the exact bytes Meta sent: keep them, parse after checking.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.get(
    '/api/webhooks/meta/:connectId',
    {
      config: publicAccess(),
      schema: {
        tags: ['channels'],
        params: ZParams,
        querystring: z.object({
          'hub.mode': z.string().max(40).optional(),
          'hub.verify_token': z.string().max(200).optional(),
          'hub.challenge': z.string().max(200).optional(),
        }),
        hide: true,
      },
    },
    async (request, reply) => {
      const channel = await instagramChannel(deps.db, request.params.connectId);
      const expected = verifyTokenOf(deps, channel.account);
      const query = request.query;
      const given = query['hub.verify_token'] ?? '';
      if (query['hub.mode'] !== 'subscribe' || !expected || !safeEqual(given, expected))
        throw refused('The verify token did not match.');
      const challenge = query['hub.challenge'] ?? '';
      // Meta's challenge is a number; anything else is not echoed back.
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(challenge)) throw refused('The challenge is missing.');
      await deps.db
        .update(channelAccounts)
        .set({ webhookVerifiedAt: new Date() })
        .where(eq(channelAccounts.connectionId, channel.connection.id));
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );

  app.post(
    '/api/webhooks/meta/:connectId',
    { config: publicAccess(), schema: { tags: ['channels'], params: ZParams, hide: true } },
    async (request, reply) => {
      const channel = await instagramChannel(deps.db, request.params.connectId);
      const secret = channel.account.transport === 'meta' ? webhookTokenOf(deps, channel.account) : null;
      const raw = Buffer.isBuffer(request.body) ? request.body : null;
      if (!secret || !raw || !metaSignatureValid(raw, request.headers['x-hub-signature-256'], secret))
        throw refused('The webhook signature did not match.');
      let body: MetaWebhookBody;
      try {
        body = JSON.parse(raw.toString('utf8')) as MetaWebhookBody;
      } catch {
        throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook body is not JSON.');
      }
      if (!body || typeof body !== 'object' || !Array.isArray(body.entry))
        throw new AppError('WEBHOOK_MISSING_BODY', 'The webhook carried no entries.');
      const { messages, ignored } = messagesOf(body, channel.account.externalAccountId);
      let stored = 0;
      for (const message of messages.slice(0, 1000)) {
        const result = await receiveInbound(deps, channel, message);
        if (!result.duplicate) stored += 1;
      }
      if (ignored.length)
        request.log.info({ connectionId: channel.connection.id, ignored }, 'meta webhook events ignored');
      return reply.type('text/plain; charset=utf-8').send(stored || messages.length ? 'EVENT_RECEIVED' : 'IGNORED');
    },
  );
};
