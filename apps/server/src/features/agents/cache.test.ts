import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { AGENTS_CHANNEL, findAgentCached } from './cache';
import { agents } from './schema';

describe('the agent cache', () => {
  let t: TestApp;
  let cookie: string;
  let subaccountId: string;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Cache Agency',
      owner: { email: 'owner@agent-cache.test', name: 'Owner' },
      subaccounts: ['Main'],
      plan: 'sb_growth_month_3000',
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: { cookie, 'x-subaccount-id': subaccountId },
      payload: { name: 'Cached', systemPrompt: 'First prompt' },
    });
    agentId = created.json().id;
  });
  afterAll(() => t.close());

  it('keeps an agent until another process says it changed, then reads the change', async () => {
    expect((await findAgentCached(t.deps.db, agentId))?.systemPrompt).toBe('First prompt');
    // Another process writes the agent: this one still answers from memory...
    await t.deps.db.update(agents).set({ systemPrompt: 'Changed elsewhere' }).where(eq(agents.id, agentId));
    expect((await findAgentCached(t.deps.db, agentId))?.systemPrompt).toBe('First prompt');
    // ...until that process's change reaches it through the event bus.
    await t.deps.bus.publish(AGENTS_CHANNEL, { agentId });
    expect(
      await until(
        async () => (await findAgentCached(t.deps.db, agentId))?.systemPrompt,
        (prompt) => prompt === 'Changed elsewhere',
      ),
    ).toBe('Changed elsewhere');
  });

  it('drops the agent in every process when it is edited or deleted through the API', async () => {
    const told: unknown[] = [];
    const stop = t.deps.bus.subscribe(AGENTS_CHANNEL, (payload) => told.push(payload));
    try {
      await findAgentCached(t.deps.db, agentId);
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/agents/${agentId}`,
        headers: { cookie, 'x-subaccount-id': subaccountId },
        payload: { systemPrompt: 'Edited prompt' },
      });
      expect(patched.statusCode).toBe(200);
      expect((await findAgentCached(t.deps.db, agentId))?.systemPrompt).toBe('Edited prompt');
      await until(
        () => told.length,
        (count) => count >= 1,
      );
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/agents/${agentId}`,
        headers: { cookie, 'x-subaccount-id': subaccountId },
      });
      expect(deleted.statusCode).toBe(204);
      expect(await findAgentCached(t.deps.db, agentId)).toBeNull();
      await until(
        () => told.length,
        (count) => count >= 2,
      );
      expect(told).toEqual([{ agentId }, { agentId }]);
    } finally {
      stop();
    }
  });
});
