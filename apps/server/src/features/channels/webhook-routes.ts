import { INVALID_NUMBER_MESSAGE } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { publicAccess } from '../../platform/guard';
import { vendorLimit } from '../../platform/request-limits';
import { findChannel, webhookTokenOf } from './connections';
import { applyStatus, receiveInbound } from './inbound';
import { toE164 } from './phone';

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

const refused = () =>
  new AppError('WEBHOOK_VALIDATION_FAILED', 'The webhook signature did not match.', { status: 403 });

/** 'whatsapp:+15555555555' or '+15555555555' → E.164, or null. */
const phoneOf = (address: string | undefined) => (address ? toE164(address.replace(/^whatsapp:/i, ''), 'US') : null);

/**
 * Twilio's webhooks for SMS and WhatsApp connections: inbound messages and status callbacks, both
 * form-encoded and signed with X-Twilio-Signature over PUBLIC_URL + path and the sorted parameters.
 * An unsigned or wrongly signed request is refused before anything is read or stored.
 */
export const twilioWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const params: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(body as string)) params[key] = value;
    done(null, params);
  });

  app.post(
    '/api/webhooks/twilio/:connectId',
    {
      config: { ...publicAccess(), ...vendorLimit(deps.env) },
      schema: { tags: ['channels'], params: z.object({ connectId: z.string().max(64) }), hide: true },
    },
    async (request, reply) => {
      const channel = await findChannel(deps.db, request.params.connectId);
      if (!channel) throw new AppError('WEBHOOK_NOT_FOUND', 'The webhook does not exist.');
      const token = webhookTokenOf(deps, channel.account);
      const signature = request.headers['x-twilio-signature'];
      const params =
        request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)
          ? (request.body as Record<string, string>)
          : null;
      if (!token || typeof signature !== 'string' || !params) throw refused();
      const url = `${deps.publicUrl.replace(/\/$/, '')}${request.url}`;
      const { default: twilio } = await import('twilio');
      if (!twilio.validateRequest(token, signature, url, params)) throw refused();

      const sid = params.MessageSid ?? params.SmsSid;
      if (!sid) throw new AppError('WEBHOOK_MISSING_MESSAGE', 'The webhook carried no MessageSid.');
      reply.type('text/xml; charset=utf-8');
      const status = params.MessageStatus ?? params.SmsStatus;
      if (status && status !== 'received' && params.Body === undefined) {
        await applyStatus(deps, channel, { providerSid: sid, status, errorCode: params.ErrorCode || null });
        return EMPTY_TWIML;
      }
      const from = phoneOf(params.From);
      if (!from) throw new AppError('MESSAGE_INVALID_NUMBER', INVALID_NUMBER_MESSAGE, { field: 'From' });
      const mediaCount = Math.min(10, Number.parseInt(params.NumMedia ?? '0', 10) || 0);
      const mediaUrls = Array.from({ length: mediaCount }, (_, i) => params[`MediaUrl${i}`]).filter(
        (value): value is string => typeof value === 'string' && /^https:\/\//.test(value),
      );
      await receiveInbound(deps, channel, {
        from,
        body: (params.Body ?? '').slice(0, 1600),
        providerSid: sid,
        mediaUrls,
        optOutType: params.OptOutType ?? null,
      });
      return EMPTY_TWIML;
    },
  );
};
