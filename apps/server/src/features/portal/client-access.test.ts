import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { GuardedRoute } from '../../platform/guard';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { createTenantObjects, fillPath } from '../../testing/tenant-objects';
import { arbitraryFor } from '../../testing/zod-arbitrary';

/**
 * The client role: a person of a client business reads its own sub-account (agents,
 * conversations, usage), writes only where the agency turned a switch on, and meets nothing else
 * of the agency: answered as a non-member (404), or 403 for a switch that is off.
 */
let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let one: string;
let two: string;
let ids: Record<string, string>;
let owner: string;
let client: string;
let member: string;
let smsId: string;

const CLIENT = 'client@one.test';

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, {
    accountName: 'Acme Agency',
    owner: { email: 'owner@acme.test', name: 'Acme Owner' },
    subaccounts: ['Client One', 'Client Two'],
    plan: 'sb_growth_month_3000',
    users: [
      { email: CLIENT, name: 'Carla Client', role: 'client', subaccounts: ['Client One'] },
      { email: 'member@one.test', name: 'Mo Member', role: 'member', subaccounts: ['Client One'] },
    ],
  });
  other = await seedAgency(t.deps.db, {
    accountName: 'Other Agency',
    owner: { email: 'owner@other.test', name: 'Other Owner' },
    subaccounts: ['Other Client'],
  });
  [one, two] = agency.subaccountIds as [string, string];
  owner = await t.cookieFor(agency.ownerId);
  client = await t.cookieFor(agency.userIds[CLIENT] as string);
  member = await t.cookieFor(agency.userIds['member@one.test'] as string);
  ids = await createTenantObjects(t, owner, one);
  const sms = await call(owner, 'POST', '/api/channels', { subaccountId: one, type: 'sms', buildId: ids.agentId });
  expect(sms.statusCode, sms.body).toBeLessThan(300);
  smsId = sms.json().connectionId;
});

/** The ids for a route: an SMS channel's for the channel routes, the widget's elsewhere. */
const idsFor = (url: string) => (url.startsWith('/api/channels/') ? { ...ids, connectionId: smsId } : ids);
afterAll(() => t.close());

const call = (cookie: string, method: string, url: string, payload?: object, subaccountId = one) =>
  t.app.inject({ method: method as 'GET', url, payload, headers: { cookie, 'x-subaccount-id': subaccountId } });

const setSwitches = async (access: object) => {
  const response = await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, access);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('a client reads its own sub-account', () => {
  it('sees its agents, conversations, usage and allowance', async () => {
    const agents = await call(client, 'GET', '/api/agents');
    expect(agents.statusCode, agents.body).toBe(200);
    expect(agents.body).toContain('Their Secret Agent');
    expect((await call(client, 'GET', `/api/subaccounts/${one}/agents`)).statusCode).toBe(200);
    expect((await call(client, 'GET', `/api/agents/${ids.agentId}`)).statusCode).toBe(200);
    const conversations = await call(client, 'GET', `/api/connections/${ids.connectionId}/conversations`);
    expect(conversations.statusCode, conversations.body).toBe(200);
    const usage = await call(client, 'GET', '/api/usage/breakdown?groupBy=subaccount');
    expect(usage.statusCode, usage.body).toBe(200);
    const allowances = await call(client, 'GET', '/api/billing/allowances');
    expect(allowances.statusCode, allowances.body).toBe(200);
    expect(allowances.json().subaccounts.map((row: { subaccountId: string }) => row.subaccountId)).toEqual([one]);
    const accounts = await call(client, 'GET', '/api/accounts');
    expect(accounts.statusCode).toBe(200);
    const [account] = accounts.json().accounts;
    expect(account.canManageBilling).toBe(false);
    expect(account.subaccounts.map((sub: { id: string; role: string }) => [sub.id, sub.role])).toEqual([
      [one, 'client'],
    ]);
  });

  it('gets the portal context: a client, its switches and the agency branding', async () => {
    const response = await call(client, 'GET', '/api/portal/context');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      subaccountId: one,
      isClient: true,
      access: { editAgents: false, inbox: true, campaigns: false },
      branding: { name: 'Acme Agency', whiteLabel: false },
    });
    expect((await call(owner, 'GET', '/api/portal/context')).json().isClient).toBe(false);
  });
});

describe('a client is refused the agency', () => {
  it.each([
    ['GET', '/api/billing/overview'],
    ['GET', '/api/stripe/subscription-details'],
    ['POST', '/api/stripe/create-portal'],
    ['GET', '/api/billing/subaccount-selection'],
    ['GET', '/api/api-keys'],
    ['POST', '/api/api-keys'],
    ['GET', '/api/marketplace/projects'],
    ['GET', '/api/affiliate'],
    ['GET', '/api/launch'],
    ['GET', '/api/support/tickets'],
    ['GET', '/api/evaluation/runs'],
    ['GET', '/api/integrations/connections'],
    ['POST', '/api/agents'],
  ])('%s %s answers as to a non-member', async (method, url) => {
    const response = await call(client, method, url, method === 'GET' ? undefined : { name: 'x' });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it("refuses the agency's branding, domain, team, webhooks, settings and other clients", async () => {
    for (const [method, url] of [
      ['GET', `/api/accounts/${agency.accountId}/branding`],
      ['GET', `/api/accounts/${agency.accountId}/domain`],
      ['GET', `/api/subaccounts/${one}/members`],
      ['GET', `/api/subaccounts/${one}/client-access`],
      ['PATCH', `/api/subaccounts/${one}/theme`],
      ['GET', `/api/connect/${one}/webhooks`],
      ['GET', `/api/connect/${one}/providers`],
      ['GET', `/api/subaccounts/${two}/agents`],
      ['GET', `/api/subaccounts/${other.subaccountIds[0]}/agents`],
    ] as const) {
      const response = await call(client, method, url, method === 'PATCH' ? { isDarkMode: false } : undefined);
      expect([method, url, response.statusCode]).toEqual([method, url, 404]);
    }
    const sideways = await call(client, 'GET', '/api/agents', undefined, two);
    expect(sideways.statusCode).toBe(404);
  });
});

describe('the switches choose what a client may write', () => {
  it('editing agents: refused while off, allowed once on', async () => {
    const patch = () => call(client, 'PATCH', `/api/agents/${ids.agentId}`, { name: 'Renamed by client' });
    const refused = await patch();
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.message).toContain('editing agents');
    await setSwitches({ editAgents: true });
    expect((await patch()).statusCode).toBe(200);
    await setSwitches({ editAgents: false });
    expect((await patch()).statusCode).toBe(403);
  });

  it('inbox: on by default (take over and reply), refused when turned off', async () => {
    const takeover = () =>
      call(client, 'POST', `/api/connections/${ids.connectionId}/conversations/${ids.threadId}/takeover`, {
        takeOver: true,
      });
    const allowed = await takeover();
    expect(allowed.json().error?.reason).not.toBe('client_access_off');
    expect(allowed.statusCode).not.toBe(403);
    await setSwitches({ inbox: false });
    const refused = await takeover();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('inbox');
    await setSwitches({ inbox: true });
  });

  it('campaigns and contacts: refused while off, reach the route once on', async () => {
    const list = () => call(client, 'GET', `/api/channels/${one}/contacts`);
    expect((await list()).statusCode).toBe(403);
    await setSwitches({ campaigns: true });
    const allowed = await list();
    expect(allowed.statusCode).not.toBe(403);
    expect(allowed.json().error?.message).not.toBe('Not found');
    await setSwitches({ campaigns: false });
  });

  it('the switches are the manager’s: a member is refused, another agency finds nothing, bad input is a 422', async () => {
    expect((await call(member, 'GET', `/api/subaccounts/${one}/client-access`)).statusCode).toBe(403);
    expect((await call(member, 'PATCH', `/api/subaccounts/${one}/client-access`, { inbox: false })).statusCode).toBe(
      403,
    );
    const stranger = await t.cookieFor(other.ownerId);
    expect(
      (await call(stranger, 'PATCH', `/api/subaccounts/${one}/client-access`, { inbox: false }, other.subaccountIds[0]))
        .statusCode,
    ).toBe(404);
    expect((await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, {})).statusCode).toBe(422);
    const unknown = await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, { billing: true });
    expect(unknown.statusCode).toBe(422);
    const wrongType = await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, { inbox: 'yes' });
    expect(wrongType.statusCode).toBe(422);
    const read = await call(owner, 'GET', `/api/subaccounts/${one}/client-access`);
    expect(read.json()).toEqual({ subaccountId: one, access: { editAgents: false, inbox: true, campaigns: false } });
  });

  it('the agency invites a client through the team invitation', async () => {
    const response = await call(owner, 'POST', `/api/subaccounts/${one}/members`, {
      email: 'newclient@one.test',
      role: 'client',
    });
    expect(response.statusCode, response.body).toBe(200);
    const invited = response.json().members.find((m: { email: string }) => m.email === 'newclient@one.test');
    expect(invited).toMatchObject({ role: 'client', status: 'invited' });
    // A client cannot invite anyone.
    const byClient = await call(client, 'POST', `/api/subaccounts/${one}/members`, {
      email: 'x@one.test',
      role: 'client',
    });
    expect(byClient.statusCode).toBe(404);
  });
});

/** A body the route's schema accepts (so only the guard can refuse it), or none. */
const validBody = (route: GuardedRoute, seed: number) => {
  if (route.method === 'GET' || route.method === 'DELETE' || !route.schema?.body) return undefined;
  const [body] = fc.sample(arbitraryFor(route.schema.body as z.ZodType), { numRuns: 1, seed });
  return body as object;
};

/** The writes a client may make, each with the switch that admits it. */
const CLIENT_WRITES: Record<string, string> = {
  'PATCH /api/agents/:agentId': 'editAgents',
  'POST /api/agents/:agentId/chat': 'editAgents',
  'POST /api/agents/:agentId/websites': 'editAgents',
  'POST /api/agents/:agentId/documents': 'editAgents',
  'DELETE /api/agents/:agentId/documents/:documentId': 'editAgents',
  'POST /api/connections/:connectionId/conversations/:threadId/takeover': 'inbox',
  'POST /api/connections/:connectionId/conversations/:threadId/messages': 'inbox',
  'POST /api/connections/:connectionId/conversations/:threadId/whatsapp-template': 'inbox',
  'PUT /api/subaccounts/:subaccountId/inbox/threads/:threadId/assignee': 'inbox',
  'PUT /api/subaccounts/:subaccountId/inbox/threads/:threadId/labels': 'inbox',
  'PATCH /api/subaccounts/:subaccountId/inbox/threads/:threadId/contact': 'inbox',
  'POST /api/subaccounts/:subaccountId/inbox/labels': 'inbox',
  'PATCH /api/subaccounts/:subaccountId/inbox/labels/:labelId': 'inbox',
  'DELETE /api/subaccounts/:subaccountId/inbox/labels/:labelId': 'inbox',
  'POST /api/subaccounts/:subaccountId/inbox/canned-replies': 'inbox',
  'PUT /api/subaccounts/:subaccountId/inbox/canned-replies/:cannedReplyId': 'inbox',
  'DELETE /api/subaccounts/:subaccountId/inbox/canned-replies/:cannedReplyId': 'inbox',
  'POST /api/channels/:connectId/contacts': 'campaigns',
  'PATCH /api/channels/:connectId/contacts/:contactId': 'campaigns',
  'DELETE /api/channels/:connectId/contacts/:contactId': 'campaigns',
  'POST /api/channels/:connectId/contacts/import/preview': 'campaigns',
  'POST /api/channels/:connectId/contacts/import': 'campaigns',
  'POST /api/channels/:connectionId/campaigns': 'campaigns',
  'PUT /api/channels/:connectionId/campaigns/:campaignId': 'campaigns',
  'DELETE /api/channels/:connectionId/campaigns/:campaignId': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/start': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/pause': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/resume': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/cancel': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/retry-unsent': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/test-send': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/clone': 'campaigns',
  'POST /api/channels/:connectionId/campaigns/:campaignId/conversions': 'campaigns',
  'POST /api/channels/:connectionId/whatsapp-templates/preview': 'campaigns',
  'POST /api/subaccounts/:subaccountId/client-plan/checkout': 'plan',
  'POST /api/subaccounts/:subaccountId/client-plan/cancel': 'plan',
  'PUT /api/subaccounts/:subaccountId/client-plan/balance': 'plan',
};

describe('every route, as a client', () => {
  it('names exactly the writes a client may make, each behind its switch', () => {
    const writes = Object.fromEntries(
      t.app.guardedRoutes
        .filter((route) => route.method !== 'GET' && route.access.kind === 'subaccount' && route.access.client)
        .map((route) => [`${route.method} ${route.url}`, route.access.kind === 'subaccount' && route.access.client]),
    );
    expect(writes).toEqual(CLIENT_WRITES);
  });

  it('with every switch off, refuses every write and every read not marked for clients', {
    timeout: 180_000,
  }, async () => {
    await setSwitches({ editAgents: false, inbox: false, campaigns: false });
    const tried = t.app.guardedRoutes.filter(
      (route) => route.access.kind === 'subaccount' || route.access.kind === 'user',
    );
    expect(tried.length).toBeGreaterThan(100);
    for (const [index, route] of tried.entries()) {
      if (route.url.endsWith('/events')) continue;
      const gate = route.access.kind === 'subaccount' ? route.access.client : undefined;
      const userRoute = route.access.kind === 'user';
      const ownPlan = gate === 'plan';
      const admitted =
        gate === 'read' || ownPlan || (userRoute && route.access.kind === 'user' && route.access.clients);
      const payload = validBody(route, index);
      let response = await call(client, route.method, fillPath(route.url, idsFor(route.url)), payload);
      // A sampled body over the route's size limit is refused before anyone looks at the caller.
      if (response.statusCode === 413)
        response = await call(client, route.method, fillPath(route.url, idsFor(route.url)), {});
      const where = `${route.method} ${route.url} answered ${response.statusCode} ${response.body.slice(0, 200)}`;
      // A route about one thing of the caller's (a checkout) does not find another's.
      const owned = route.access.kind === 'user' && route.access.owns;
      if (admitted) {
        if (!owned) expect(response.json().error?.message ?? 'ok', where).not.toBe('Not found');
        // Past the guard: a refusal now is the route's own (a plan without the feature), not the role's.
        expect(response.json().error?.code ?? 'ok', where).not.toBe('FORBIDDEN');
      } else if (gate) {
        expect(response.statusCode, where).toBe(403);
        expect(response.json().error.reason, where).toBe('client_access_off');
      } else {
        expect(response.statusCode, where).toBe(404);
      }
      // Writes a client makes with every switch off: its own plan only (and paying its own checkout).
      if (route.method !== 'GET' && !ownPlan && !userRoute) {
        expect(admitted, `${route.method} ${route.url} admits a client`).toBeFalsy();
      }
    }
    await setSwitches({ inbox: true });
  });
});
