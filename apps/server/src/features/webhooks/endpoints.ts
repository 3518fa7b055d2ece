import type {
  TCreateWebhookEndpointRequest,
  TUpdateWebhookEndpointRequest,
  TWebhookEndpoint,
  TWebhookEventType,
} from '@switchboard/core';
import { ZCreateWebhookEndpointRequest, ZUpdateWebhookEndpointRequest } from '@switchboard/core';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { policyOf, vetUrlResolved } from '../../platform/outbound';
import { TtlCache } from '../../platform/ttl-cache';
import { webhookDeliveries, webhookEndpoints } from './schema';
import { newWebhookSecret } from './signing';

/** At most this many endpoints per sub-account. */
export const MAX_ENDPOINTS_PER_SUBACCOUNT = 20;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const notFound = () => new AppError('WEBHOOK_NOT_FOUND', 'The webhook does not exist.');

/**
 * The enabled endpoints of a sub-account and their events, read whenever an event happens (every
 * chat message): kept 10 s, dropped at once when this process changes an endpoint.
 */
const subscribersCache = new TtlCache<{ id: string; events: TWebhookEventType[] }[]>(10_000);

export const subscribersOf = (deps: Deps, subaccountId: string) =>
  subscribersCache.getOrLoad(subaccountId, () =>
    deps.db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.subaccountId, subaccountId), eq(webhookEndpoints.enabled, true))),
  );

export const forgetSubscribers = (subaccountId: string) => subscribersCache.delete(subaccountId);

const vetEndpointUrl = (deps: Deps, url: string) => vetUrlResolved(url, policyOf(deps.env), { field: 'url' });

const lastDeliveries = async (deps: Deps, endpointIds: string[]) => {
  if (!endpointIds.length) return new Map<string, TWebhookEndpoint['lastDelivery']>();
  const rows = await deps.db
    .selectDistinctOn([webhookDeliveries.endpointId], {
      endpointId: webhookDeliveries.endpointId,
      status: webhookDeliveries.status,
      at: sql<Date>`coalesce(${webhookDeliveries.lastAttemptAt}, ${webhookDeliveries.createdAt})`,
      responseStatus: webhookDeliveries.responseStatus,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, endpointIds))
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.createdAt));
  return new Map(
    rows.map((row) => [
      row.endpointId,
      { status: row.status, at: new Date(row.at).toISOString(), responseStatus: row.responseStatus },
    ]),
  );
};

const toView = (row: EndpointRow, lastDelivery: TWebhookEndpoint['lastDelivery'] = null): TWebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  lastDelivery,
});

export const listEndpoints = async (deps: Deps, subaccountId: string) => {
  const rows = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.subaccountId, subaccountId))
    .orderBy(webhookEndpoints.createdAt);
  const last = await lastDeliveries(
    deps,
    rows.map((row) => row.id),
  );
  return { endpoints: rows.map((row) => toView(row, last.get(row.id) ?? null)) };
};

export const findEndpoint = async (deps: Deps, subaccountId: string, endpointId: string): Promise<EndpointRow> => {
  const [row] = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.subaccountId, subaccountId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
};

export const createEndpoint = async (deps: Deps, subaccountId: string, input: TCreateWebhookEndpointRequest) => {
  const body = ZCreateWebhookEndpointRequest.parse(input);
  await vetEndpointUrl(deps, body.url);
  const row = await deps.db.transaction(async (tx) => {
    // Counted under a lock on the sub-account, so two creations at once cannot pass the limit.
    await tx.execute(sql`SELECT id FROM subaccounts WHERE id = ${subaccountId} FOR UPDATE`);
    const [count] = await tx
      .select({ value: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.subaccountId, subaccountId));
    if ((count?.value ?? 0) >= MAX_ENDPOINTS_PER_SUBACCOUNT)
      throw new AppError(
        'VALIDATION_ERROR',
        `An account can have at most ${MAX_ENDPOINTS_PER_SUBACCOUNT} webhook endpoints. Remove one first.`,
        { field: 'url' },
      );
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('webhookEndpoint'),
        subaccountId,
        url: body.url,
        description: body.description,
        events: [...new Set(body.events)],
        secretEncrypted: encryptSecret(deps.env, newWebhookSecret()),
      })
      .returning();
    return created as EndpointRow;
  });
  forgetSubscribers(subaccountId);
  return toView(row);
};

export const updateEndpoint = async (
  deps: Deps,
  subaccountId: string,
  endpointId: string,
  input: TUpdateWebhookEndpointRequest,
) => {
  const body = ZUpdateWebhookEndpointRequest.parse(input);
  await findEndpoint(deps, subaccountId, endpointId);
  if (body.url !== undefined) await vetEndpointUrl(deps, body.url);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events)] } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled, disabledReason: null } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.subaccountId, subaccountId)))
    .returning();
  if (!row) throw notFound();
  forgetSubscribers(subaccountId);
  const last = await lastDeliveries(deps, [row.id]);
  return toView(row, last.get(row.id) ?? null);
};

export const deleteEndpoint = async (deps: Deps, subaccountId: string, endpointId: string) => {
  const removed = await deps.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.subaccountId, subaccountId)))
    .returning({ id: webhookEndpoints.id });
  if (!removed.length) throw notFound();
  forgetSubscribers(subaccountId);
};

export const endpointSecret = async (deps: Deps, subaccountId: string, endpointId: string) => {
  const row = await findEndpoint(deps, subaccountId, endpointId);
  return { secret: decryptSecret(deps.env, row.secretEncrypted) };
};

/** Turns an endpoint off on the server's own account (it answered 410 Gone). */
export const disableEndpoint = async (deps: Deps, row: EndpointRow, reason: string) => {
  await deps.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, row.id));
  forgetSubscribers(row.subaccountId);
};
