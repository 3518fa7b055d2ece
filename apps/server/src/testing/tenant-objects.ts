import { expect } from 'vitest';
import type { TestApp } from './harness';

/**
 * Creates one of each thing an agency owns through the API (agent, widget connection, demo, API key,
 * agent-builder job, chat thread, mentor review, webhook endpoint, app connection) as the given user, and returns their ids by the route parameter
 * names that carry them, so a test can fill any route's path with real ids.
 */
export const createTenantObjects = async (t: TestApp, cookie: string, subaccountId: string) => {
  const as = async (method: 'POST' | 'GET', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      payload,
      headers: { cookie, 'x-subaccount-id': subaccountId },
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return String(response.headers['content-type']).includes('json') ? response.json() : response.body;
  };
  const agent = await as('POST', '/api/agents', { name: 'Their Secret Agent' });
  const connection = await as('POST', '/api/connections', { subaccountId, buildId: agent.id, type: 'website-widget' });
  const demo = await as('POST', '/api/demos', { name: 'Their demo', type: 'standard', buildId: agent.id });
  const key = await as('POST', '/api/api-keys', { name: 'Their key' });
  const job = await as('POST', '/api/agent/build', { idea: 'A helpful plumber assistant' });
  await as('POST', `/api/agents/${agent.id}/chat`, { message: 'Hello there' });
  const threads = await as('GET', `/api/agents/${agent.id}/threads`);
  const review = await as('POST', '/api/mentor/reviews', { agentId: agent.id });
  // A public address given as an IP, so saving it needs no DNS.
  const endpoint = await as('POST', `/api/connect/${subaccountId}/webhooks`, {
    url: 'https://93.184.215.14/hooks',
    events: ['lead.captured'],
  });
  const integration = await as('POST', '/api/integrations/connections', {
    appSlug: 'sandbox_crm',
    apiKey: 'their-sandbox-key',
  });
  return {
    subaccountId,
    integrationId: integration.connection.id as string,
    connectId: subaccountId,
    agentId: agent.id as string,
    buildId: agent.id as string,
    connectionId: connection.connectionId as string,
    widgetId: connection.widgetId as string,
    demoId: (demo.demoId ?? demo.id) as string,
    keyId: (key.id ?? key.key?.id) as string,
    jobId: job.jobId as string,
    id: job.jobId as string,
    threadId: (threads.threads?.[0]?.id ?? 'thr_none') as string,
    reviewId: review.id as string,
    endpointId: endpoint.id as string,
    suggestionId: (review.suggestions?.[0]?.id ?? 's1') as string,
  } as Record<string, string>;
};

/** A route path with its `:param`s filled from `ids` (unknown names get a placeholder). */
export const fillPath = (url: string, ids: Record<string, string>) =>
  url.replace(/:([A-Za-z]+)/g, (_all, name: string) => ids[name] ?? `${name}_unknown`);
