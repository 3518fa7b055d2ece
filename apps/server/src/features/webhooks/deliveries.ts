import {
  reachesOutside,
  type TOrigin,
  type TWebhookDelivery,
  type TWebhookEventType,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_EXAMPLE,
} from '@switchboard/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { decryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  backoffDelayMs,
  defineJob,
  enqueueJob,
  type JobContext,
  parseRetryAfter,
  RetryableJobError,
} from '../../platform/jobs';
import { BlockedAddressError, createOutboundFetch, type OutboundPolicy, policyOf } from '../../platform/outbound';
import { disableEndpoint, findEndpoint, subscribersOf } from './endpoints';
import { webhookDeliveries, webhookEndpoints } from './schema';
import { webhookHeaders } from './signing';

const DELIVER_JOB = 'webhooks.deliver';
/** Attempts of one delivery: eleven waits of the job runner's backoff (1 s doubling to 15 min, with jitter). */
const MAX_ATTEMPTS = 12;
const TIMEOUT_MS = 10_000;
/** The part of a receiver's answer kept in the delivery log. */
const RESPONSE_KEPT = 1000;
const LOG_SIZE = 50;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const toView = (row: DeliveryRow): TWebhookDelivery => ({
  id: row.id,
  endpointId: row.endpointId,
  eventId: row.eventId,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  responseBody: row.responseBody,
  error: row.error,
  durationMs: row.durationMs,
  payload: JSON.parse(row.body) as unknown,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
});

/** Writes the deliveries of one event and their jobs (inside the caller's transaction when given). */
const queueDeliveries = async (
  deps: Deps,
  subaccountId: string,
  endpointIds: string[],
  event: { eventId: string; type: string; body: string },
  tx?: Tx,
) => {
  const write = async (db: Tx) => {
    const rows = endpointIds.map((endpointId) => ({
      id: newId('webhookDelivery'),
      endpointId,
      subaccountId,
      eventId: event.eventId,
      type: event.type,
      body: event.body,
    }));
    await db.insert(webhookDeliveries).values(rows);
    for (const row of rows) {
      await enqueueJob(
        deps,
        { type: DELIVER_JOB, payload: { deliveryId: row.id }, subaccountId, maxAttempts: MAX_ATTEMPTS },
        db,
      );
    }
    return rows.map((row) => row.id);
  };
  return tx ? write(tx) : deps.db.transaction(write);
};

const eventBody = (type: string, data: unknown) => {
  const eventId = newId('webhookEvent');
  return { eventId, type, body: JSON.stringify({ type, timestamp: new Date().toISOString(), data }) };
};

/**
 * Sends an event to every enabled endpoint of the sub-account that chose it. Costs one cached
 * lookup when nobody listens, so it can sit on the chat path. The event's origin says where it
 * comes from: an event of a test (an evaluation run, a test chat, a demo) is never delivered, nor
 * written as a delivery, whoever emits it.
 */
export const emitWebhookEvent = async (
  deps: Deps,
  subaccountId: string,
  type: TWebhookEventType,
  data: Record<string, unknown>,
  origin: TOrigin,
  tx?: Tx,
): Promise<void> => {
  if (!reachesOutside(origin)) return;
  const endpoints = (await subscribersOf(deps, subaccountId)).filter((endpoint) => endpoint.events.includes(type));
  if (!endpoints.length) return;
  await queueDeliveries(
    deps,
    subaccountId,
    endpoints.map((endpoint) => endpoint.id),
    eventBody(type, data),
    tx,
  );
};

/** Whether any endpoint of the sub-account listens for one of these events (cached). */
export const anyoneListens = async (deps: Deps, subaccountId: string, types: readonly TWebhookEventType[]) =>
  (await subscribersOf(deps, subaccountId)).some((endpoint) => types.some((type) => endpoint.events.includes(type)));

export const sendTestEvent = async (deps: Deps, subaccountId: string, endpointId: string) => {
  await findEndpoint(deps, subaccountId, endpointId);
  const [id] = await queueDeliveries(
    deps,
    subaccountId,
    [endpointId],
    eventBody(WEBHOOK_TEST_EVENT, WEBHOOK_TEST_EXAMPLE.example),
  );
  return getDelivery(deps, subaccountId, id as string);
};

/**
 * Sends a delivery's event again, with the same `webhook-id` so receivers see it is the same
 * event. Refused while a delivery of that event to that endpoint is still on its way (two clicks
 * at once send it once).
 */
export const resendDelivery = async (deps: Deps, subaccountId: string, endpointId: string, deliveryId: string) => {
  const newDeliveryId = await deps.db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.subaccountId, subaccountId),
        ),
      )
      .for('update')
      .limit(1);
    if (!original) throw new AppError('NOT_FOUND', 'The delivery does not exist or was deleted.');
    const [pending] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.eventId, original.eventId),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .limit(1);
    if (pending) throw new AppError('CONFLICT', 'This event is already on its way to the endpoint.');
    const [id] = await queueDeliveries(
      deps,
      subaccountId,
      [endpointId],
      { eventId: original.eventId, type: original.type, body: original.body },
      tx,
    );
    return id as string;
  });
  return getDelivery(deps, subaccountId, newDeliveryId);
};

export const getDelivery = async (deps: Deps, subaccountId: string, deliveryId: string) => {
  const [row] = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.subaccountId, subaccountId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'The delivery does not exist or was deleted.');
  return toView(row);
};

/** The delivery log of an endpoint: its latest deliveries, newest first. */
export const listDeliveries = async (deps: Deps, subaccountId: string, endpointId: string) => {
  await findEndpoint(deps, subaccountId, endpointId);
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.subaccountId, subaccountId)))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(LOG_SIZE);
  return { deliveries: rows.map(toView) };
};

const fetchers = new WeakMap<OutboundPolicy, typeof fetch>();
/** The one safe fetch, for user-given endpoint addresses: no private addresses, no redirects followed. */
const webhookFetch = (deps: Deps) => {
  const policy = policyOf(deps.env);
  const found = fetchers.get(policy);
  if (found) return found;
  const created = createOutboundFetch({ policy, field: 'url', maxResponseBytes: RESPONSE_KEPT });
  fetchers.set(policy, created);
  return created;
};

interface Attempt {
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  retryAfterMs: number | null;
  /** Worth trying again later (a timeout, a 5xx, a 429 …). */
  temporary: boolean;
}

const attempt = async (deps: Deps, url: string, secret: string, row: DeliveryRow): Promise<Attempt> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await webhookFetch(deps)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Switchboard-Webhooks/1.0',
        ...webhookHeaders(secret, row.eventId, row.body),
      },
      body: row.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = (await response.text()).slice(0, RESPONSE_KEPT);
    const ok = response.status >= 200 && response.status < 300;
    return {
      responseStatus: response.status,
      responseBody: text || null,
      error: ok
        ? null
        : response.status >= 300 && response.status < 400
          ? 'The endpoint answered with a redirect; redirects are not followed. Use the final address.'
          : `The endpoint answered ${response.status}.`,
      durationMs: elapsed(),
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      temporary: !ok && response.status !== 410,
    };
  } catch (error) {
    const blocked =
      error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError;
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    return {
      responseStatus: null,
      responseBody: null,
      error: blocked
        ? 'This address is not public and cannot be reached'
        : timedOut
          ? `The endpoint did not answer within ${TIMEOUT_MS / 1000} seconds.`
          : `The endpoint could not be reached (${(error as Error).message || 'connection failed'}).`,
      durationMs: elapsed(),
      retryAfterMs: null,
      temporary: !blocked,
    };
  }
};

/** Deliveries are kept this long for the log, then deleted (checked at most hourly by each process). */
export const DELIVERY_RETENTION_DAYS = 30;
let lastPrune = 0;
const pruneOldDeliveries = async (deps: Deps) => {
  if (Date.now() - lastPrune < 60 * 60_000) return;
  lastPrune = Date.now();
  await deps.db
    .delete(webhookDeliveries)
    .where(
      and(
        sql`${webhookDeliveries.createdAt} < now() - make_interval(days => ${DELIVERY_RETENTION_DAYS})`,
        sql`${webhookDeliveries.status} <> 'pending'`,
      ),
    );
};

/** Runs one attempt of a delivery and records it; a temporary failure is retried by the job runner. */
const deliver = async (deps: Deps, job: JobContext<{ deliveryId: string }>) => {
  const { deliveryId } = job.payload;
  await pruneOldDeliveries(deps);
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .limit(1);
  if (found?.delivery.status !== 'pending') return;
  const { delivery, endpoint } = found;
  const record = (values: Partial<DeliveryRow>) =>
    deps.db
      .update(webhookDeliveries)
      .set({ ...values, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, delivery.id));
  if (!endpoint.enabled && delivery.type !== WEBHOOK_TEST_EVENT) {
    await record({ status: 'failed', error: 'The endpoint is turned off.', nextAttemptAt: null });
    return;
  }
  const result = await attempt(deps, endpoint.url, decryptSecret(deps.env, endpoint.secretEncrypted), delivery);
  const outcome = {
    responseStatus: result.responseStatus,
    responseBody: result.responseBody,
    error: result.error,
    durationMs: result.durationMs,
  };
  if (result.error === null) {
    await record({ ...outcome, status: 'succeeded', nextAttemptAt: null });
    return;
  }
  if (result.responseStatus === 410) {
    await record({ ...outcome, status: 'failed', nextAttemptAt: null });
    await disableEndpoint(deps, endpoint, 'The endpoint answered 410 Gone, so it was turned off.');
    return;
  }
  if (result.temporary && job.attempt < job.maxAttempts) {
    const delayMs = backoffDelayMs(job.attempt, { retryAfterMs: result.retryAfterMs, random: () => 0 });
    await record({ ...outcome, status: 'pending', nextAttemptAt: new Date(Date.now() + delayMs) });
    throw new RetryableJobError(result.error, { retryAfterMs: delayMs });
  }
  await record({ ...outcome, status: 'failed', nextAttemptAt: null });
};

/** One attempt of an outbound webhook delivery. */
export const webhookDeliveryJob = defineJob({
  type: DELIVER_JOB,
  queue: 'webhooks',
  schema: z.object({ deliveryId: z.string() }),
  maxAttempts: MAX_ATTEMPTS,
  handler: deliver,
});
