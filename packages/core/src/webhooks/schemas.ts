import { z } from 'zod';
import { zWebAddress } from '../http/web-address';
import { WEBHOOK_EVENT_TYPES } from './events';

export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

const ZEndpointUrl = zWebAddress(2048);

export const ZCreateWebhookEndpointRequest = z.object({
  url: ZEndpointUrl,
  description: z.string().trim().max(200, 'Keep the description under 200 characters').default(''),
  events: z.array(ZWebhookEventType).min(1, 'Choose at least one event').max(WEBHOOK_EVENT_TYPES.length),
});
export type TCreateWebhookEndpointRequest = z.input<typeof ZCreateWebhookEndpointRequest>;

export const ZUpdateWebhookEndpointRequest = z
  .object({
    url: ZEndpointUrl.optional(),
    description: z.string().trim().max(200, 'Keep the description under 200 characters').optional(),
    events: z.array(ZWebhookEventType).min(1, 'Choose at least one event').max(WEBHOOK_EVENT_TYPES.length).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), 'Nothing to change');
export type TUpdateWebhookEndpointRequest = z.input<typeof ZUpdateWebhookEndpointRequest>;

export const ZWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(ZWebhookEventType),
  enabled: z.boolean(),
  /** Why the endpoint was turned off by the server (it answered 410 Gone), else null. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  lastDelivery: z
    .object({
      status: z.enum(['pending', 'succeeded', 'failed']),
      at: z.string(),
      responseStatus: z.number().nullable(),
    })
    .nullable(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

export const ZWebhookEndpointList = z.object({ endpoints: z.array(ZWebhookEndpoint) });

/** The endpoint's signing secret (`whsec_…`), shown to admins. */
export const ZWebhookSecret = z.object({ secret: z.string() });

export const ZWebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);

export const ZWebhookDelivery = z.object({
  id: z.string(),
  endpointId: z.string(),
  /** The message id sent as `webhook-id`: the same on every attempt and resend of one event. */
  eventId: z.string(),
  type: z.string(),
  status: ZWebhookDeliveryStatus,
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  payload: z.unknown(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.object({ deliveries: z.array(ZWebhookDelivery) });
