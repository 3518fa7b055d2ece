/**
 * Before a campaign acts: a send time in the past is refused, and the audience's size (with the
 * suppressed numbers it skips) is there for the confirmations of "Send now" and "Pause".
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { campaigns, channelSuppressions } from './schema';

let t: TestApp;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

/** A local date-time ("2026-05-01T09:00") in UTC, `minutes` from now. */
const localIn = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16);

const draft = (extra: object = {}) =>
  api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: 'Whitening',
    audience: { type: 'tags', tags: ['clinic'] },
    message: 'Whitening 20% off',
    ...extra,
  });

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  connectionId = (await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id })).json()
    .connectionId;
  for (const phone of ['+15551260001', '+15551260002', '+15551260003'])
    await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, tags: ['clinic'] });
  await t.deps.db
    .insert(channelSuppressions)
    .values({ subaccountId, sender: '*', phone: '+15551260003', source: 'failed', errorCode: '21211' });
});
afterAll(() => t.close());

describe('a campaign’s send time', () => {
  it('refuses a time in the past with a clear 422 on create and edit; a later one is kept', async () => {
    const past = await draft({ sendAt: localIn(-120) });
    expect(past.statusCode).toBe(422);
    expect(past.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'sendAt' });
    expect(past.json().error.message).toContain('The send time has passed (UTC)');
    const later = await draft({ sendAt: localIn(120) });
    expect(later.statusCode, later.body).toBe(201);
    const id = later.json().campaignId;
    const edited = await api('PUT', `/api/channels/${connectionId}/campaigns/${id}`, {
      name: 'Whitening',
      audience: { type: 'all' },
      message: 'x',
      sendAt: localIn(-5),
    });
    expect(edited.statusCode).toBe(422);
    expect(edited.json().error.field).toBe('sendAt');
  });

  it('does not send a draft whose time passed while it waited', async () => {
    const created = await draft({ sendAt: localIn(30) });
    const id = created.json().campaignId;
    await t.deps.db
      .update(campaigns)
      .set({ scheduledFor: new Date(Date.now() - 3_600_000) })
      .where(eq(campaigns.id, id));
    const start = await api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`);
    expect(start.statusCode).toBe(422);
    expect(start.json().error.message).toContain('The send time has passed');
    const [row] = await t.deps.db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(row?.status).toBe('draft');
  });
});

describe('a campaign’s audience size', () => {
  it('counts the contacts, the suppressed ones it skips, and answers 404 to another tenant', async () => {
    const id = (await draft()).json().campaignId;
    const size = await api('GET', `/api/channels/${connectionId}/campaigns/${id}/audience`);
    expect(size.statusCode, size.body).toBe(200);
    expect(size.json()).toEqual({ contacts: 3, suppressed: 1, optedOut: 0, recipients: 2, heldByQuietHours: 0 });
    const foreign = await api('GET', `/api/channels/${connectionId}/campaigns/${id}/audience`, undefined, outsider);
    expect(foreign.statusCode).toBe(404);
  });
});
