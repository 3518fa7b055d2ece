import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';

let t: TestApp;
let admin: string;
let viewer: string;
let outsider: string;
let subaccountId: string;
let agentId: string;
let otherSubaccountId: string;
let otherAgentId: string;

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  otherSubaccountId = agency.subaccountIds[1] as string;
  agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' })).id;
  otherAgentId = (
    await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: otherSubaccountId, name: 'Dental Helper' })
  ).id;
  admin = await t.cookieFor(agency.ownerId);
  viewer = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
  outsider = await t.cookieFor(other.ownerId);
});
afterAll(() => t.close());

const create = async (type = 'website-widget', sub = subaccountId, buildId = agentId) =>
  t.app.inject({
    method: 'POST',
    url: '/api/connections',
    headers: { cookie: admin },
    payload: { subaccountId: sub, buildId, type },
  });

describe('widget connections', () => {
  it('creates a connection with the stored defaults, deployed', async () => {
    const res = await create();
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.connectionId).toMatch(/^con_/);
    expect(body.widgetId).toMatch(/^wgt_/);
    expect(body.settings.height).toBe(500);
    expect(body.settings.chatBubble.delaySeconds).toBe(2);
    expect(body.settings.dailyLimit).toBe(200);
    expect(body.settings.widgetTitle).toBe('Solar Helper');
    // The widget speaks as its agent.
    expect(body.settings.aiName).toBe('Solar Helper');
    expect(body.settings.firstMessage).toBe('Hello! How can I help you today?');
    expect(body.settings.suggestedResponses).toEqual([
      'What can you do?',
      'How does it work?',
      'What are the pricing plans?',
    ]);
    expect(body.needsRedeploy).toBe(false);
    const foreignAgent = await create('website-block', subaccountId, otherAgentId);
    expect(foreignAgent.statusCode).toBe(404);
    expect(foreignAgent.json().error.field).toBe('buildId');
  });

  it('keeps an account on the free plan to 1 connection of each type', async () => {
    const free = await seedAgency(t.deps.db, {
      accountName: 'Free Agency',
      owner: { email: 'free@example.com', name: 'Free' },
      subaccounts: ['Solo'],
    });
    const sub = free.subaccountIds[0] as string;
    const agent = await seedAgent(t.deps.db, { accountId: free.accountId, subaccountId: sub });
    const cookie = await t.cookieFor(free.ownerId);
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/connections',
        headers: { cookie },
        payload: { subaccountId: sub, buildId: agent.id, type: 'website-widget' },
      });
    expect((await post()).statusCode).toBe(201);
    const second = await post();
    expect(second.statusCode).toBe(403);
    expect(second.json().error.message).toBe(
      'Your plan allows 1 connection of each type. Upgrade your plan to add more.',
    );
  });

  it('saves settings, marks the redeploy, deploys, and refuses out-of-range values with their field', async () => {
    const created = await create('website-block');
    expect(created.statusCode).toBe(201);
    const { connectionId } = created.json();
    const put = (settings: unknown, cookie = admin) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/connections/${connectionId}`,
        headers: { cookie },
        payload: { settings },
      });
    const saved = await put({ themeColor: '#dc2626', placement: 'top-left', chatBubble: { delaySeconds: 5 } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.chatBubble).toEqual({
      enabled: true,
      message: 'Hi there! Need any help?',
      delaySeconds: 5,
    });
    expect(saved.json().needsRedeploy).toBe(true);

    const cases: [unknown, string, string][] = [
      [{ width: 299 }, 'settings.width', 'Width must be between 300 and 600 px'],
      [{ height: 701 }, 'settings.height', 'Height must be between 300 and 700 px'],
      [{ logoWidth: 301 }, 'settings.logoWidth', 'Logo width must be between 50 and 300 px'],
      [
        { chatBubble: { delaySeconds: 501 } },
        'settings.chatBubble.delaySeconds',
        'Popup delay must be between 1 and 500 seconds',
      ],
      [{ logoUrl: 'javascript:alert(1)' }, 'settings.logoUrl', 'Invalid image URL. Please enter a valid image URL.'],
      [{ themeColor: 'red;}' }, 'settings.themeColor', 'Theme colour must be a hex value such as #276d64'],
      [{ language: 'xx' }, 'settings.language', 'Pick one of the 16 widget languages'],
    ];
    for (const [settings, field, message] of cases) {
      const res = await put(settings);
      expect(res.statusCode, JSON.stringify(settings)).toBe(422);
      expect(res.json().error.field).toBe(`body.${field}`);
      expect(res.json().error.message).toContain(message);
    }
    expect((await put({ width: 450 }, viewer)).statusCode).toBe(403);
    expect((await put({ width: 450 }, outsider)).statusCode).toBe(404);

    const deployed = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${connectionId}/deploy`,
      headers: { cookie: admin },
    });
    expect(deployed.json().needsRedeploy).toBe(false);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/connections/${connectionId}`,
      headers: { cookie: viewer },
    });
    expect(got.json().settings.themeColor).toBe('#dc2626');
    const context = await t.app.inject({
      method: 'GET',
      url: `/api/connect-context/${connectionId}`,
      headers: { cookie: viewer },
    });
    expect(context.json().subaccountId).toBe(subaccountId);
  });

  it('changes the build only to an agent of the same sub-account', async () => {
    const { connectionId } = (await create('website-widget', otherSubaccountId, otherAgentId)).json();
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/connections/${connectionId}/update-build`,
      headers: { cookie: admin },
      payload: { buildId: agentId },
    });
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error.code).toBe('BUILD_NOT_FOUND');
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/api/connections/${connectionId}/update-build`,
      headers: { cookie: admin },
      payload: { buildId: otherAgentId },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('names derived from a long agent name', () => {
  it.each([81, 100, 120])('creates and lists a connection for an agent named with %i characters', async (length) => {
    const agency = await seedAgency(t.deps.db, {
      accountName: `Long ${length}`,
      owner: { email: `long${length}@example.com`, name: 'Long' },
      subaccounts: ['Long Co'],
    });
    const sub = agency.subaccountIds[0] as string;
    const cookie = await t.cookieFor(agency.ownerId);
    const name = 'N'.repeat(length);
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: { cookie, 'x-subaccount-id': sub },
      payload: { name },
    });
    expect(agent.statusCode).toBe(201);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/connections',
      headers: { cookie },
      payload: { subaccountId: sub, buildId: agent.json().id, type: 'website-widget' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().connectionName.length).toBeLessThanOrEqual(80);
    expect(created.json().settings.widgetTitle.length).toBeLessThanOrEqual(80);
    const list = await t.app.inject({ url: `/api/subaccounts/${sub}/connections`, headers: { cookie } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().connections).toHaveLength(1);
  });

  it('deletes a widget: its embed stops answering, a viewer and another agency cannot, a second delete is 404', async () => {
    const created = (await create('website-block')).json();
    const embed = () => t.app.inject({ url: `/widget/${created.widgetId}/widget.js` });
    expect((await embed()).statusCode).toBe(200);
    const url = `/api/connections/${created.connectionId}`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: viewer } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: outsider } })).statusCode).toBe(404);
    const [first, second] = await Promise.all([
      t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } }),
      t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } }),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([204, 404]);
    expect((await t.app.inject({ url, headers: { cookie: admin } })).statusCode).toBe(404);
    expect((await embed()).statusCode).toBe(404);
  });
});
