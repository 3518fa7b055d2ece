import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { seedAgency } from '../tenancy/seed';
import { createThread, getThreadWithMessages, storeMessage } from './repo';

describe('group commit of messages', () => {
  let t: TestApp;
  let subaccountId: string;
  let agentId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Writer',
      owner: { email: 'owner@writer.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId })).id;
  });
  afterAll(() => t.close());

  it('stores concurrent messages of many threads with correct counts and last messages', async () => {
    const threads = await Promise.all(
      Array.from({ length: 5 }, () => createThread(t.deps.db, { subaccountId, agentId, channel: 'api' })),
    );
    await Promise.all(
      threads.flatMap((thread, i) =>
        Array.from({ length: 4 }, (_, n) =>
          storeMessage(t.deps, { subaccountId, threadId: thread.id, role: 'user', content: `t${i} m${n}` }),
        ),
      ),
    );
    for (const [i, thread] of threads.entries()) {
      const stored = await getThreadWithMessages(t.deps.db, subaccountId, thread.id);
      expect(stored?.messages.map((m) => m.content)).toEqual([`t${i} m0`, `t${i} m1`, `t${i} m2`, `t${i} m3`]);
      expect(stored?.thread).toMatchObject({ messageCount: 4, lastMessage: `t${i} m3` });
    }
  });

  it('fails only the message whose thread does not exist', async () => {
    const thread = await createThread(t.deps.db, { subaccountId, agentId, channel: 'api' });
    const results = await Promise.allSettled([
      storeMessage(t.deps, { subaccountId, threadId: thread.id, role: 'user', content: 'fine' }),
      storeMessage(t.deps, { subaccountId, threadId: 'thr_missing', role: 'user', content: 'orphan' }),
      storeMessage(t.deps, { subaccountId, threadId: thread.id, role: 'assistant', content: 'also fine' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await getThreadWithMessages(t.deps.db, subaccountId, thread.id);
    expect(stored?.thread.messageCount).toBe(2);
  });
});
