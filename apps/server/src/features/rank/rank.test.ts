import { MARKETPLACE_AVATARS, MARKETPLACE_IMAGES } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { threads } from '../conversations/schema';

let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  t = await startTestApp();
  const stamp = Date.now();
  agency = await seedAgency(t.deps.db, {
    accountName: 'Ranked Agency',
    owner: { email: `ranked-${stamp}@example.test`, name: 'Ranked Owner' },
    subaccounts: ['Ranked Client'],
  });
  other = await seedAgency(t.deps.db, {
    accountName: 'Busy Agency',
    owner: { email: `busy-${stamp}@example.test`, name: 'Busy Owner' },
    subaccounts: ['Busy Client'],
  });
  cookie = await t.cookieFor(agency.ownerId);
  otherCookie = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t?.close();
});

const rank = async (who: string) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/user/rank', headers: { cookie: who } });
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('GET /api/user/rank', () => {
  it('starts at level 1 and says what the next level needs', async () => {
    const start = await rank(cookie);
    expect(start).toMatchObject({ level: 1, levelName: 'Newcomer', points: 0 });
    expect(start.nextLevel).toMatchObject({ level: 2, name: 'Builder', pointsToGo: 50 });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/rank' })).statusCode).toBe(401);
  });

  it('counts conversations, demos and marketplace projects of the agency only', async () => {
    const subaccountId = agency.subaccountIds[0] as string;
    const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Ranked agent' });
    // Another agency's busy work counts for it, not for this one.
    const otherAgent = await seedAgent(t.deps.db, {
      accountId: other.accountId,
      subaccountId: other.subaccountIds[0] as string,
      name: 'Busy agent',
    });
    const thread = (sub: string, agentId: string, channel: 'widget' | 'test', messageCount: number) => ({
      id: newId('thread'),
      subaccountId: sub,
      agentId,
      channel,
      messageCount,
    });
    await t.deps.db
      .insert(threads)
      .values([
        ...Array.from({ length: 12 }, () => thread(subaccountId, agent.id, 'widget', 3)),
        thread(subaccountId, agent.id, 'test', 5),
        thread(subaccountId, agent.id, 'widget', 0),
        ...Array.from({ length: 40 }, () => thread(other.subaccountIds[0] as string, otherAgent.id, 'widget', 2)),
      ]);
    const demo = await t.app.inject({
      method: 'POST',
      url: '/api/demos',
      headers: { cookie },
      payload: { name: 'Ranked demo', type: 'website', buildId: agent.id },
    });
    expect(demo.statusCode).toBe(201);
    const project = await t.app.inject({
      method: 'POST',
      url: '/api/marketplace/projects',
      headers: { cookie },
      payload: {
        title: 'Ranked request',
        description: 'A request that counts toward the agency rank because it was posted on the marketplace.',
        timeframe: '1-2 weeks',
        priceValue: 200,
        priceType: 'one-time',
        image: MARKETPLACE_IMAGES[1],
        icon: MARKETPLACE_AVATARS[1],
        category: 'LLMs',
        marketplaceType: 'business',
        authorName: 'Ranked Owner',
        companyName: 'Ranked Agency',
      },
    });
    expect(project.statusCode).toBe(201);
    const now = await rank(cookie);
    const count = (key: string) => now.breakdown.find((item: { key: string }) => item.key === key)?.count;
    expect(count('conversationsHandled')).toBe(12);
    expect(count('demosShared')).toBe(1);
    expect(count('marketplaceProjects')).toBe(1);
    expect(now.points).toBe(12 + 10 + 15);
    expect(now.level).toBe(1);
    expect(now.nextLevel.pointsToGo).toBe(50 - 37);
    expect(
      (await rank(otherCookie)).breakdown.find((item: { key: string }) => item.key === 'conversationsHandled').count,
    ).toBe(40);
  });
});
