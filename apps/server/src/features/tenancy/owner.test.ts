import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

/** The agency's owner cannot be locked out; ownership moves only by the owner's own transfer. */
let t: TestApp;
let agency: SeededAgency;
let owner: string;
let secondAdminId: string;
let secondAdmin: string;
let member: string;
let sub: string;

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  sub = agency.subaccountIds[0] as string;
  owner = await t.cookieFor(agency.ownerId);
  const memberId = agency.userIds['member@demo.switchboard.local'] as string;
  member = await t.cookieFor(memberId);
  // A second admin, promoted by the owner.
  secondAdminId = memberId;
  const promoted = await t.app.inject({
    method: 'PATCH',
    url: `/api/subaccounts/${sub}/members/${secondAdminId}`,
    headers: { cookie: owner },
    payload: { role: 'admin' },
  });
  expect(promoted.statusCode).toBe(200);
  secondAdmin = member;
});
afterAll(() => t.close());

const members = async (cookie: string) =>
  (await t.app.inject({ url: `/api/subaccounts/${sub}/members`, headers: { cookie } })).json();

describe("the agency's owner", () => {
  it('cannot be demoted or removed by another admin, nor by themselves', async () => {
    for (const cookie of [secondAdmin, owner]) {
      const demote = await t.app.inject({
        method: 'PATCH',
        url: `/api/subaccounts/${sub}/members/${agency.ownerId}`,
        headers: { cookie },
        payload: { role: 'viewer' },
      });
      expect(demote.statusCode, demote.body).toBe(403);
      const remove = await t.app.inject({
        method: 'DELETE',
        url: `/api/subaccounts/${sub}/members/${agency.ownerId}`,
        headers: { cookie },
      });
      expect(remove.statusCode, remove.body).toBe(403);
    }
    const list = await members(owner);
    expect(list.members.find((m: { userId: string }) => m.userId === agency.ownerId)).toMatchObject({
      role: 'admin',
      isOwner: true,
    });
    expect(list.iAmOwner).toBe(true);
    expect((await members(secondAdmin)).iAmOwner).toBe(false);
  });

  it('a member cannot change the branding through the Settings calls, only the light/dark mode', async () => {
    const viewerish = await t.cookieFor(agency.userIds['viewer@demo.switchboard.local'] as string);
    const memberSub = agency.subaccountIds[1] as string;
    // The demo member is a member of the second sub-account.
    const memberCookie = await t.cookieFor(agency.userIds['member@demo.switchboard.local'] as string);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${memberSub}/members/${agency.userIds['member@demo.switchboard.local']}`,
      headers: { cookie: owner },
      payload: { role: 'member' },
    });
    const colour = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${memberSub}/theme`,
      headers: { cookie: memberCookie },
      payload: { primaryColor: '#112233' },
    });
    expect(colour.statusCode, colour.body).toBe(403);
    const mode = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${memberSub}/theme`,
      headers: { cookie: memberCookie },
      payload: { isDarkMode: false },
    });
    expect(mode.statusCode).toBe(200);
    const sms = await t.app.inject({
      method: 'PATCH',
      url: `/api/sms/${memberSub}/settings`,
      headers: { cookie: memberCookie },
      payload: { companyName: 'Taken over' },
    });
    expect(sms.statusCode).toBe(403);
    const viewer = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${memberSub}/theme`,
      headers: { cookie: viewerish },
      payload: { isDarkMode: true },
    });
    expect(viewer.statusCode).toBe(403);
  });

  it('transfers ownership only when the owner asks, and only to an admin', async () => {
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/accounts/${agency.accountId}/transfer-ownership`,
      headers: { cookie: secondAdmin },
      payload: { userId: secondAdminId },
    });
    expect(byAdmin.statusCode).toBe(403);
    const toViewer = await t.app.inject({
      method: 'POST',
      url: `/api/accounts/${agency.accountId}/transfer-ownership`,
      headers: { cookie: owner },
      payload: { userId: agency.userIds['viewer@demo.switchboard.local'] },
    });
    expect(toViewer.statusCode).toBe(422);
    const outsider = await seedAgency(t.deps.db, {
      accountName: 'Outsiders',
      owner: { email: 'owner@outsiders.test', name: 'Out' },
      subaccounts: ['Out'],
    });
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/accounts/${agency.accountId}/transfer-ownership`,
      headers: { cookie: await t.cookieFor(outsider.ownerId) },
      payload: { userId: outsider.ownerId },
    });
    expect(foreign.statusCode).toBe(404);

    // The same transfer twice at once: one owner at the end, and the old owner stays admin.
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/accounts/${agency.accountId}/transfer-ownership`,
          headers: { cookie: owner },
          payload: { userId: secondAdminId },
        }),
      ),
    );
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 403]);
    const list = await members(secondAdmin);
    expect(list.iAmOwner).toBe(true);
    expect(list.members.find((m: { userId: string }) => m.userId === agency.ownerId)).toMatchObject({
      role: 'admin',
      isOwner: false,
    });
    // Now the former owner can be demoted like any admin, and the new owner cannot.
    const demoteNew = await t.app.inject({
      method: 'PATCH',
      url: `/api/subaccounts/${sub}/members/${secondAdminId}`,
      headers: { cookie: owner },
      payload: { role: 'member' },
    });
    expect(demoteNew.statusCode).toBe(403);
  });
});
