import { createStatusStore, type TLaunchResponse } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { findChannel } from '../channels/connections';
import { answerInbound, receiveInbound } from '../channels/inbound';
import { connections } from '../connections/schema';

let t: TestApp;
let admin: string;
let viewer: string;
let outsider: string;
let subaccountId: string;
let agentId: string;

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' })).id;
  admin = await t.cookieFor(agency.ownerId);
  viewer = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
  outsider = await t.cookieFor(other.ownerId);
});
afterAll(() => t.close());

const overview = async (cookie = admin): Promise<TLaunchResponse> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/launch', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const recordOf = async (connectionId: string) =>
  (await overview()).subaccounts.flatMap((sub) => sub.connections).find((item) => item.connectionId === connectionId);

const chat = (widgetId: string, message = 'Do you install solar panels?') =>
  t.app.inject({
    method: 'POST',
    url: `/api/widget/${widgetId}/chat`,
    payload: { message, contactIdentifier: 'preview_launch_1' },
  });

const action = (connectionId: string, what: 'pause' | 'resume', cookie = admin) =>
  t.app.inject({ method: 'POST', url: `/api/launch/connections/${connectionId}/${what}`, headers: { cookie } });

describe('Launch', () => {
  let connectionId: string;
  let widgetId: string;

  it('lists every sub-account of the caller, none connected at first', async () => {
    const body = await overview();
    expect(body.subaccounts.map((sub) => sub.name).sort()).toEqual(['Harbor Dental', 'Sunrise Solar']);
    expect(body.subaccounts.every((sub) => sub.connections.length === 0)).toBe(true);
    expect(body.hasMore).toBe(false);
    const others = await overview(outsider);
    expect(others.subaccounts.map((sub) => sub.name)).toEqual(['Other Co']);
    const unsigned = await t.app.inject({ method: 'GET', url: '/api/launch' });
    expect(unsigned.statusCode).toBe(401);
  });

  it('shows a new widget as pending until a visitor chats through it, then live', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/connections',
      headers: { cookie: admin },
      payload: { subaccountId, buildId: agentId, type: 'website-widget' },
    });
    ({ connectionId, widgetId } = created.json());
    const pending = await recordOf(connectionId);
    expect(pending).toMatchObject({
      type: 'website-widget',
      appSlug: 'website-widget',
      status: 'pending_connection',
      error: null,
      setupPath: `/${connectionId}/website-widget`,
    });
    expect(pending?.checklist.filter((item) => !item.done).map((item) => item.key)).toEqual(['embedded']);
    // The status store marks the app not connected while its record is pending.
    const store = createStatusStore();
    store.load(subaccountId, pending ? [pending] : []);
    expect(store.channelState(subaccountId, 'website-widget')).toBe('not_connected');

    expect((await chat(widgetId)).statusCode).toBe(200);
    const live = await recordOf(connectionId);
    expect(live?.status).toBe('live');
    store.load(subaccountId, live ? [live] : []);
    expect(store.channelState(subaccountId, 'website-widget')).toBe('live');
  });

  it('pauses a widget: its chat answers CONNECTION_INACTIVE until it is resumed', async () => {
    expect((await action(connectionId, 'pause', viewer)).statusCode).toBe(403);
    expect((await action(connectionId, 'pause', outsider)).statusCode).toBe(404);
    const paused = await action(connectionId, 'pause');
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({
      status: 'paused',
      error: { code: 'CONNECTION_INACTIVE', actions: ['Activate Connection'] },
    });
    // Pausing twice is the same pause.
    expect((await action(connectionId, 'pause')).json().status).toBe('paused');

    const refused = await chat(widgetId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('CONNECTION_INACTIVE');
    expect(refused.json().error.message).toMatch(/paused/);

    // A page that loads the widget now gets no launcher and no chat frame.
    const script = await t.app.inject({ method: 'GET', url: `/widget/${widgetId}/widget.js` });
    expect(script.statusCode).toBe(409);
    expect(script.body).toContain('paused');
    expect((await t.app.inject({ method: 'GET', url: `/widget/${widgetId}` })).statusCode).toBe(409);

    const resumed = await action(connectionId, 'resume');
    expect(resumed.json().status).toBe('live');
    expect((await chat(widgetId)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/widget/${widgetId}/widget.js` })).statusCode).toBe(200);
  });

  it('keeps one pause when the same pause is asked twice at once', async () => {
    const both = await Promise.all([action(connectionId, 'pause'), action(connectionId, 'pause')]);
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(both.map((res) => res.json().status)).toEqual(['paused', 'paused']);
    expect((await chat(widgetId)).statusCode).toBe(409);
    expect((await action(connectionId, 'resume')).json().status).toBe('live');
  });

  it('pages the sub-accounts and refuses a bad page', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/launch?limit=1', headers: { cookie: admin } });
    expect(first.json().subaccounts).toHaveLength(1);
    expect(first.json().hasMore).toBe(true);
    const second = await t.app.inject({ method: 'GET', url: '/api/launch?limit=1&page=2', headers: { cookie: admin } });
    expect(second.json().hasMore).toBe(false);
    expect(second.json().subaccounts[0].subaccountId).not.toBe(first.json().subaccounts[0].subaccountId);
    const only = await t.app.inject({
      method: 'GET',
      url: `/api/launch?subaccountId=${subaccountId}`,
      headers: { cookie: admin },
    });
    expect(only.json().subaccounts.map((sub: { subaccountId: string }) => sub.subaccountId)).toEqual([subaccountId]);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/launch?subaccountId=${subaccountId}`,
      headers: { cookie: outsider },
    });
    expect(foreign.json().subaccounts).toEqual([]);
    for (const query of ['limit=1000', 'page=0', 'limit=abc'])
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/launch?${query}`, headers: { cookie: admin } })).statusCode,
      ).toBe(422);
  });

  it('answers another tenant’s or an unknown connection with 404', async () => {
    expect((await action('con_doesnotexist', 'pause')).statusCode).toBe(404);
    expect((await action('wgt_notaconnection', 'pause')).statusCode).toBe(404);
  });

  it('shows a sandbox SMS agent live and labelled, and a paused one answers no inbound message', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/channels',
      headers: { cookie: admin },
      payload: { subaccountId, type: 'sms', buildId: agentId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const smsId = created.json().connectionId as string;
    const record = await recordOf(smsId);
    expect(record).toMatchObject({ status: 'live', sandbox: true, setupPath: `/${smsId}/sms/campaigns` });

    expect((await action(smsId, 'pause')).statusCode).toBe(200);
    const channel = await findChannel(t.deps.db, smsId);
    if (!channel) throw new Error('no channel');
    const inbound = await receiveInbound(t.deps, channel, {
      from: '+14155550100',
      body: 'Hello?',
      providerSid: 'SBXIN_launch_1',
      mediaUrls: [],
    });
    expect(await answerInbound(t.deps, inbound.messageId as string)).toEqual({ skipped: 'connection_paused' });
    expect((await action(smsId, 'resume')).json().status).toBe('live');
  });

  it('marks a widget without an agent as an error with the catalogue code and action', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/connections',
      headers: { cookie: admin },
      payload: { subaccountId, buildId: agentId, type: 'website-block' },
    });
    const blockId = created.json().connectionId as string;
    await t.deps.db
      .update(connections)
      .set({ buildId: null, deployedBuildId: null })
      .where(eq(connections.id, blockId));
    expect(await recordOf(blockId)).toMatchObject({
      status: 'error',
      error: { code: 'BUILD_NOT_FOUND', actions: ['View Builds'] },
    });
  });
});
