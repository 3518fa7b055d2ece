import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKETPLACE_AVATARS, MARKETPLACE_IMAGES } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { marketplaceDailyCounts, marketplaceProjects } from './schema';

const webPublic = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/public');

let t: TestApp;
let growth: SeededAgency;
let free: SeededAgency;
let rival: SeededAgency;
let growthCookie: string;
let freeCookie: string;
let rivalCookie: string;
let n = 0;

const seed = async (label: string, plan?: string) => {
  n += 1;
  return seedAgency(t.deps.db, {
    accountName: `${label} ${n}`,
    owner: { email: `${label.toLowerCase()}${n}-${Date.now()}@example.test`, name: `${label} Owner` },
    subaccounts: [`${label} Client`],
    ...(plan ? { plan } : {}),
  });
};

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const project = (overrides: Record<string, unknown> = {}) => ({
  title: 'Voice agent for a dental clinic',
  description: 'We need an AI receptionist that books appointments and answers insurance questions by phone.',
  timeframe: '2-4 weeks',
  price: '$500',
  priceValue: 500,
  priceType: 'one-time',
  image: MARKETPLACE_IMAGES[0],
  icon: MARKETPLACE_AVATARS[0],
  category: 'Chatbots',
  marketplaceType: 'business',
  authorName: 'Dana Smile',
  email: null,
  companyName: 'Smile Dental',
  ...overrides,
});

beforeAll(async () => {
  t = await startTestApp({ MARKETPLACE_DAILY_PROJECT_LIMIT: '2' });
  growth = await seed('Growth', 'sb_growth_month_3000');
  free = await seed('Free');
  rival = await seed('Rival', 'sb_growth_month_3000');
  growthCookie = await t.cookieFor(growth.ownerId);
  freeCookie = await t.cookieFor(free.ownerId);
  rivalCookie = await t.cookieFor(rival.ownerId);
});
afterAll(async () => {
  await t?.close();
});

const resetDay = async (userId: string) =>
  t.deps.db.delete(marketplaceDailyCounts).where(eq(marketplaceDailyCounts.userId, userId));

describe('marketplace pictures', () => {
  it('lists images and avatars shipped as files with the product, before sign-in', async () => {
    const images = (await api('GET', '/api/marketplace/marketplace-images', null)).json() as string[];
    const avatars = (await api('GET', '/api/avatars', null)).json() as string[];
    expect(images).toHaveLength(9);
    expect(avatars.length).toBeGreaterThanOrEqual(8);
    for (const file of [...images, ...avatars]) expect(existsSync(path.join(webPublic, file))).toBe(true);
  });
});

describe('posting projects', () => {
  it('posts a business request on the free plan and shows it in browse without the address', async () => {
    const created = await api('POST', '/api/marketplace/projects', freeCookie, project());
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ projectsToday: 1, dailyLimit: 2 });
    expect(body.project).toMatchObject({ price: '$500', isMine: true, status: 'open', marketplaceType: 'business' });
    const list = await api('GET', '/api/marketplace/projects?q=dental', growthCookie);
    expect(list.statusCode).toBe(200);
    expect(list.json().projects.map((p: { id: string }) => p.id)).toContain(body.project.id);
    expect(list.body).not.toContain('@example.test');
    expect(list.json().canTrade).toBe(true);
    await resetDay(free.ownerId);
  });

  it('needs the marketplace capability for an agency offer', async () => {
    const refused = await api('POST', '/api/marketplace/projects', freeCookie, project({ marketplaceType: 'agency' }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
    expect((await api('GET', '/api/marketplace/projects', freeCookie)).json().canTrade).toBe(false);
    const offered = await api(
      'POST',
      '/api/marketplace/projects',
      growthCookie,
      project({ marketplaceType: 'agency', title: 'We build WhatsApp agents', priceType: 'monthly', priceValue: 350 }),
    );
    expect(offered.statusCode).toBe(201);
    expect(offered.json().project.price).toBe('$350 a month');
    await resetDay(growth.ownerId);
  });

  it('refuses bad input with the wizard texts and writes nothing', async () => {
    const before = (await t.deps.db.select().from(marketplaceProjects)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '  abc ' }, 'Title must be at least 5 characters long.'],
      [{ title: 'x'.repeat(76) }, 'Title must be at most 75 characters long.'],
      [{ description: 'too short' }, 'Description must be at least 50 characters long.'],
      [{ description: 'y'.repeat(1001) }, 'Description must be at most 1000 characters long.'],
      [{ category: 'Crypto' }, 'category'],
      [{ image: 'https://evil.example/x.png' }, 'image'],
      [{ icon: '../../etc/passwd' }, 'icon'],
      [{ authorName: ' ' }, 'Please enter your name'],
      [{ companyName: '' }, 'Please enter your business name'],
      [{ priceValue: -1 }, 'priceValue'],
      [{ timeframe: 'tomorrow' }, 'timeframe'],
    ];
    for (const [overrides, text] of cases) {
      const response = await api('POST', '/api/marketplace/projects', growthCookie, project(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(response.body).toContain(text);
    }
    expect((await t.deps.db.select().from(marketplaceProjects)).length).toBe(before);
  });

  it('stores text as given and answers it as JSON, never as markup', async () => {
    const created = await api(
      'POST',
      '/api/marketplace/projects',
      rivalCookie,
      project({ title: '<img src=x onerror=alert(1)>', companyName: '<b>Co</b>' }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.headers['content-type']).toContain('application/json');
    expect(created.json().project.title).toBe('<img src=x onerror=alert(1)>');
    await resetDay(rival.ownerId);
  });
});

describe('the daily limit', () => {
  it('answers 429 with dailyLimitReached, projectsToday and dailyLimit', async () => {
    await resetDay(growth.ownerId);
    expect((await api('POST', '/api/marketplace/projects', growthCookie, project())).statusCode).toBe(201);
    expect((await api('POST', '/api/marketplace/projects', growthCookie, project())).statusCode).toBe(201);
    const third = await api('POST', '/api/marketplace/projects', growthCookie, project());
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ dailyLimitReached: true, projectsToday: 2, dailyLimit: 2 });
    expect(third.json().error.message).toBe(
      "Daily limit reached! You can only create 2 projects per day. You've already created 2 projects today. Please try again tomorrow.",
    );
    await resetDay(growth.ownerId);
  });

  it('is exact when requests arrive at once', async () => {
    await resetDay(rival.ownerId);
    const before = (
      await t.deps.db.select().from(marketplaceProjects).where(eq(marketplaceProjects.userId, rival.ownerId))
    ).length;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api('POST', '/api/marketplace/projects', rivalCookie, project({ title: `Concurrent project ${i}` })),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([201, 201, 429, 429, 429, 429]);
    const after = (
      await t.deps.db.select().from(marketplaceProjects).where(eq(marketplaceProjects.userId, rival.ownerId))
    ).length;
    expect(after - before).toBe(2);
    await resetDay(rival.ownerId);
  });
});

describe('the author and other users', () => {
  it('lets only the author edit, close and delete; a closed project leaves browse', async () => {
    const created = (
      await api('POST', '/api/marketplace/projects', growthCookie, project({ title: 'Owned project' }))
    ).json().project as { id: string };
    const url = `/api/marketplace/projects/${created.id}`;
    expect((await api('PATCH', url, rivalCookie, { title: 'Hijacked title' })).statusCode).toBe(404);
    expect((await api('DELETE', url, rivalCookie)).statusCode).toBe(404);
    const edited = await api('PATCH', url, growthCookie, { title: 'Edited project', priceValue: 900 });
    expect(edited.json()).toMatchObject({ title: 'Edited project', price: '$900' });
    expect((await api('PATCH', url, growthCookie, { status: 'closed' })).json().status).toBe('closed');
    expect((await api('GET', url, rivalCookie)).statusCode).toBe(404);
    expect((await api('GET', url, growthCookie)).statusCode).toBe(200);
    const browse = (await api('GET', '/api/marketplace/projects?limit=50', rivalCookie)).json();
    expect(browse.projects.map((p: { id: string }) => p.id)).not.toContain(created.id);
    const mine = (await api('GET', '/api/marketplace/projects?mine=true', growthCookie)).json();
    expect(mine.projects.map((p: { id: string }) => p.id)).toContain(created.id);
    expect((await api('DELETE', url, growthCookie)).statusCode).toBe(204);
    expect((await api('GET', url, growthCookie)).statusCode).toBe(404);
    await resetDay(growth.ownerId);
  });

  it('filters by category, type, budget and timeframe, and pages', async () => {
    await resetDay(free.ownerId);
    await api(
      'POST',
      '/api/marketplace/projects',
      freeCookie,
      project({ title: 'Data pipeline audit', category: 'Data', priceValue: 2500, timeframe: '3-6 months' }),
    );
    const q = (query: string) =>
      api('GET', `/api/marketplace/projects?${query}`, growthCookie).then(
        (r) => r.json().projects as { title: string }[],
      );
    expect((await q('category=Data')).map((p) => p.title)).toEqual(['Data pipeline audit']);
    expect((await q('minBudget=2000&maxBudget=3000')).map((p) => p.title)).toContain('Data pipeline audit');
    expect((await q('maxBudget=1000')).map((p) => p.title)).not.toContain('Data pipeline audit');
    expect((await q('timeframe=3-6%20months')).map((p) => p.title)).toEqual(['Data pipeline audit']);
    expect((await q('type=agency')).every((p) => p.title !== 'Data pipeline audit')).toBe(true);
    expect(await q('q=%25%25%25')).toEqual([]);
    const page = (await api('GET', '/api/marketplace/projects?limit=1&page=2', growthCookie)).json();
    expect(page.projects).toHaveLength(1);
    expect(page.total).toBeGreaterThan(1);
    expect((await api('GET', '/api/marketplace/projects?category=Nope', growthCookie)).statusCode).toBe(422);
    expect((await api('GET', '/api/marketplace/projects', null)).statusCode).toBe(401);
    await resetDay(free.ownerId);
  });

  it('mails a response to the author without showing the address; the free plan cannot respond', async () => {
    const created = (
      await api('POST', '/api/marketplace/projects', freeCookie, project({ title: 'Needs an agency' }))
    ).json().project as { id: string };
    const url = `/api/marketplace/projects/${created.id}/respond`;
    const message = 'We built three clinic receptionists this year and can start on Monday.';
    const refused = await api('POST', url, freeCookie, { message });
    expect(refused.statusCode).toBe(409);
    const sent = await api('POST', url, growthCookie, { message });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).not.toContain('@example.test');
    const [owner] = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.subject, 'New response to "Needs an agency" on the Switchboard marketplace'));
    expect(owner?.text).toContain(message);
    expect(owner?.to).toContain('free');
    const project2 = (
      await api('POST', '/api/marketplace/projects', growthCookie, project({ title: 'Growth request' }))
    ).json().project as { id: string };
    const freeAnswer = await api('POST', `/api/marketplace/projects/${project2.id}/respond`, freeCookie, { message });
    expect(freeAnswer.statusCode).toBe(403);
    expect((await api('GET', `/api/marketplace/projects/${created.id}`, growthCookie)).json().responseCount).toBe(1);
    await resetDay(free.ownerId);
    await resetDay(growth.ownerId);
  });

  it('saves the profile; a project shows the name, business and avatar it was posted under', async () => {
    const saved = await api('POST', '/api/userprofile', rivalCookie, {
      name: 'Riley Rival',
      businessName: 'Rival Automation',
      image: MARKETPLACE_AVATARS[3],
    });
    expect(saved.statusCode).toBe(200);
    expect(
      (await api('POST', '/api/userprofile', rivalCookie, { name: 'R', businessName: 'B', image: 'http://x/y.png' }))
        .statusCode,
    ).toBe(422);
    const created = (await api('POST', '/api/marketplace/projects', rivalCookie, project())).json().project;
    expect(created.author).toMatchObject({
      name: 'Dana Smile',
      businessName: 'Smile Dental',
      image: MARKETPLACE_AVATARS[0],
    });
    expect((await api('GET', '/api/userprofile', rivalCookie)).json().businessName).toBe('Rival Automation');
    expect((await api('POST', '/api/userprofile', null, { name: 'a', businessName: 'b' })).statusCode).toBe(401);
    await resetDay(rival.ownerId);
  });
});
