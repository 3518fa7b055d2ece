import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabase } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { seedAgency } from '../tenancy/seed';
import { recentMessages } from './history';
import { storeMessage } from './repo';
import { threads } from './schema';

describe('the history of a conversation', () => {
  let t: TestApp;
  let subaccountId: string;
  let agentId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'History',
      owner: { email: 'owner@history.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId })).id;
  });
  afterAll(() => t.close());

  const kept = (threadId: string, limit = 20) =>
    recentMessages(t.deps.db, threadId, limit, { embedded: embeddedDatabase(t.deps) });
  const stored = (threadId: string, limit = 20) => recentMessages(t.deps.db, threadId, limit, { embedded: false });
  const contents = (rows: { content: string }[]) => rows.map((row) => row.content);

  it('answers what the database holds: a new thread, a person joining in, the last 20 of a long one', async () => {
    const threadId = newId('thread');
    const newThread = { subaccountId, agentId, channel: 'widget' as const };
    await storeMessage(t.deps, { subaccountId, threadId, role: 'user', content: 'm0', newThread });
    expect(contents(await kept(threadId))).toEqual(['m0']);
    await Promise.all([
      storeMessage(t.deps, { subaccountId, threadId, role: 'assistant', content: 'm1' }),
      storeMessage(t.deps, { subaccountId, threadId, role: 'human', content: 'm2', userId: 'usr_person' }),
    ]);
    expect(contents(await kept(threadId))).toEqual(['m0', 'm1', 'm2']);
    for (let n = 3; n < 25; n += 1) {
      await storeMessage(t.deps, { subaccountId, threadId, role: n % 2 ? 'assistant' : 'user', content: `m${n}` });
    }
    expect(await kept(threadId)).toEqual(await stored(threadId));
    expect(contents(await kept(threadId, 5))).toEqual(['m20', 'm21', 'm22', 'm23', 'm24']);
  });

  it('keeps the message written while the thread was being read', async () => {
    // A thread this process has not written before (as after a restart): nothing of it in memory.
    const threadId = newId('thread');
    await t.deps.db.insert(threads).values({ id: threadId, subaccountId, agentId, channel: 'widget' });
    await storeMessage(t.deps, { subaccountId, threadId, role: 'user', content: 'first' });
    const reading = kept(threadId);
    await storeMessage(t.deps, { subaccountId, threadId, role: 'assistant', content: 'second' });
    await reading;
    expect(contents(await kept(threadId))).toEqual(['first', 'second']);
  });
});
