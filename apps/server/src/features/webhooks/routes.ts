import {
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EXAMPLE,
  ZCreateWebhookEndpointRequest,
  ZUpdateWebhookEndpointRequest,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookEndpoint,
  ZWebhookEndpointList,
  ZWebhookSecret,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import { publicAccess, subaccountAccess, tenantOf } from '../../platform/guard';
import { listDeliveries, resendDelivery, sendTestEvent } from './deliveries';
import { createEndpoint, deleteEndpoint, endpointSecret, listEndpoints, updateEndpoint } from './endpoints';

const tags = ['webhooks'];
const ZConnectParams = z.object({ connectId: z.string().max(64) });
const ZEndpointParams = ZConnectParams.extend({ endpointId: z.string().max(64) });
const ZDeliveryParams = ZEndpointParams.extend({ deliveryId: z.string().max(64) });

const ZEventCatalogue = z.object({
  events: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      description: z.string(),
      example: z.record(z.string(), z.unknown()),
    }),
  ),
});

/**
 * Outbound webhooks of a sub-account: endpoints with their chosen events and signing secret, the
 * delivery log, resend and a test event. Admins only: endpoint addresses and secrets are private.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const admin = subaccountAccess('admin', fromConnectId());
  const base = '/api/connect/:connectId/webhooks';

  app.get(
    '/api/webhook-events',
    { config: publicAccess(), schema: { tags, response: { 200: ZEventCatalogue } } },
    async () => ({ events: [...WEBHOOK_EVENTS, WEBHOOK_TEST_EXAMPLE] }),
  );

  app.get(
    base,
    { config: admin, schema: { tags, params: ZConnectParams, response: { 200: ZWebhookEndpointList } } },
    async (request) => listEndpoints(deps, tenantOf(request).subaccountId),
  );

  app.post(
    base,
    {
      config: admin,
      schema: {
        tags,
        params: ZConnectParams,
        body: ZCreateWebhookEndpointRequest,
        response: { 201: ZWebhookEndpoint },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createEndpoint(deps, tenantOf(request).subaccountId, request.body)),
  );

  app.patch(
    `${base}/:endpointId`,
    {
      config: admin,
      schema: {
        tags,
        params: ZEndpointParams,
        body: ZUpdateWebhookEndpointRequest,
        response: { 200: ZWebhookEndpoint },
      },
    },
    async (request) => updateEndpoint(deps, tenantOf(request).subaccountId, request.params.endpointId, request.body),
  );

  app.delete(
    `${base}/:endpointId`,
    { config: admin, schema: { tags, params: ZEndpointParams } },
    async (request, reply) => {
      await deleteEndpoint(deps, tenantOf(request).subaccountId, request.params.endpointId);
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/:endpointId/secret`,
    { config: admin, schema: { tags, params: ZEndpointParams, response: { 200: ZWebhookSecret } } },
    async (request) => endpointSecret(deps, tenantOf(request).subaccountId, request.params.endpointId),
  );

  app.post(
    `${base}/:endpointId/test`,
    {
      config: { ...admin, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags, params: ZEndpointParams, response: { 202: ZWebhookDelivery } },
    },
    async (request, reply) =>
      reply.status(202).send(await sendTestEvent(deps, tenantOf(request).subaccountId, request.params.endpointId)),
  );

  app.get(
    `${base}/:endpointId/deliveries`,
    { config: admin, schema: { tags, params: ZEndpointParams, response: { 200: ZWebhookDeliveryList } } },
    async (request) => listDeliveries(deps, tenantOf(request).subaccountId, request.params.endpointId),
  );

  app.post(
    `${base}/:endpointId/deliveries/:deliveryId/resend`,
    { config: admin, schema: { tags, params: ZDeliveryParams, response: { 202: ZWebhookDelivery } } },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await resendDelivery(
            deps,
            tenantOf(request).subaccountId,
            request.params.endpointId,
            request.params.deliveryId,
          ),
        ),
  );
};
