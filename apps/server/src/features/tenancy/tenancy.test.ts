import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
let agency: SeededAgency;
let admin: string;
let viewer: string;

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  admin = await t.cookieFor(agency.ownerId);
  viewer = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
});
afterAll(() => t.close());

describe('accounts, sub-accounts and team', () => {
  it('lists the caller accounts with roles', async () => {
    const response = await t.app.inject({ url: '/api/accounts', headers: { cookie: viewer } });
    const [account] = response.json().accounts;
    expect(account.name).toBe('Demo Agency');
    expect(account.subaccounts.map((s: { role: string }) => s.role)).toEqual(['viewer', 'viewer']);
  });

  it('creates a sub-account for an agency admin only', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { cookie: admin },
      payload: { accountId: agency.accountId, name: '  Acme Plumbing ' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Acme Plumbing', role: 'admin' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { cookie: viewer },
      payload: { accountId: agency.accountId, name: 'Nope' },
    });
    expect(refused.statusCode).toBe(404);
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/subaccounts',
      headers: { cookie: admin },
      payload: { accountId: agency.accountId, name: '   ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.field).toBe('body.name');
  });

  it('invites by email, changes roles and removes members, keeping one admin', async () => {
    const sub = agency.subaccountIds[0];
    const base = `/api/subaccounts/${sub}`;
    const invited = await t.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: { cookie: admin },
      payload: { email: 'New.Hire@Example.com', role: 'member' },
    });
    expect(invited.statusCode).toBe(200);
    const pending = invited.json().members.find((m: { email: string }) => m.email === 'new.hire@example.com');
    expect(pending).toMatchObject({ status: 'invited', role: 'member' });
    const duplicate = await t.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: { cookie: admin },
      payload: { email: 'new.hire@example.com', role: 'viewer' },
    });
    expect(duplicate.statusCode).toBe(409);

    const viewerId = agency.userIds['viewer@demo.switchboard.local'];
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `${base}/members/${viewerId}`,
      headers: { cookie: admin },
      payload: { role: 'member' },
    });
    expect(promoted.json().members.find((m: { userId: string }) => m.userId === viewerId).role).toBe('member');

    const lastAdmin = await t.app.inject({
      method: 'PATCH',
      url: `${base}/members/${agency.ownerId}`,
      headers: { cookie: admin },
      payload: { role: 'viewer' },
    });
    // The owner is the last admin here; the owner is never demoted.
    expect(lastAdmin.statusCode).toBe(403);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${base}/members/${viewerId}`,
      headers: { cookie: admin },
    });
    expect(removed.json().members.some((m: { userId: string }) => m.userId === viewerId)).toBe(false);
    const gone = await t.app.inject({ url: `${base}/members`, headers: { cookie: viewer } });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses team changes by a non-admin with 403', async () => {
    const sub = agency.subaccountIds[1];
    const member = await t.cookieFor(agency.userIds['member@demo.switchboard.local'] as string);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/subaccounts/${sub}/members`,
      headers: { cookie: member },
      payload: { email: 'x@example.com', role: 'admin' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('applies and reads back the sub-account theme; a viewer cannot change it', async () => {
    const sub = agency.subaccountIds[1];
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${sub}/theme`,
      headers: { cookie: admin },
      payload: { isDarkMode: false },
    });
    expect(changed.json()).toMatchObject({ isDarkMode: false, theme: 'light' });
    const colour = await t.app.inject({
      method: 'PATCH',
      url: `/api/sms/${sub}/settings`,
      headers: { cookie: admin },
      payload: { primaryColor: '#2563EB' },
    });
    expect(colour.json()).toMatchObject({ theme: 'light', primaryColor: '#2563eb', companyName: 'Harbor Dental' });
    const badColour = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${sub}/theme`,
      headers: { cookie: admin },
      payload: { primaryColor: 'blue' },
    });
    expect(badColour.statusCode).toBe(422);
    const member = await t.cookieFor(agency.userIds['member@demo.switchboard.local'] as string);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${sub}/theme`,
      headers: { cookie: member },
      payload: { isDarkMode: true },
    });
    const v = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${sub}/theme`,
      headers: { cookie: v },
      payload: { isDarkMode: false },
    });
    expect(refused.statusCode).toBe(403);
    const theme = await t.app.inject({ url: `/api/subaccounts/${sub}/theme`, headers: { cookie: admin } });
    expect(theme.json().isDarkMode).toBe(true);
  });
});
