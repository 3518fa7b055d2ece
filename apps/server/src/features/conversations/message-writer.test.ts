import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabase } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { recentMessages } from './history';
import { getThreadWithMessages, storeMessage } from './repo';
import { messages, threads } from './schema';

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

  /** A thread with no messages yet. */
  const createThread = async () => {
    const [thread] = await t.deps.db
      .insert(threads)
      .values({ id: newId('thread'), subaccountId, agentId, channel: 'api' })
      .returning();
    if (!thread) throw new Error('no thread');
    return thread;
  };

  it('stores concurrent messages of many threads with correct counts and last messages', async () => {
    const started = await Promise.all(Array.from({ length: 5 }, () => createThread()));
    await Promise.all(
      started.flatMap((thread, i) =>
        Array.from({ length: 4 }, (_, n) =>
          storeMessage(t.deps, {
            origin: 'live',
            subaccountId,
            threadId: thread.id,
            role: 'user',
            content: `t${i} m${n}`,
          }),
        ),
      ),
    );
    for (const [i, thread] of started.entries()) {
      const stored = await getThreadWithMessages(t.deps.db, subaccountId, thread.id);
      expect(stored?.messages.map((m) => m.content)).toEqual([`t${i} m0`, `t${i} m1`, `t${i} m2`, `t${i} m3`]);
      expect(stored?.thread).toMatchObject({ messageCount: 4, lastMessage: `t${i} m3` });
    }
  });

  it('creates new threads with their first messages in the same write as messages of older threads', async () => {
    const older = await createThread();
    const fresh = Array.from({ length: 3 }, () => newId('thread'));
    await Promise.all([
      storeMessage(t.deps, { origin: 'live', subaccountId, threadId: older.id, role: 'user', content: 'older 1' }),
      ...fresh.flatMap((id, i) => [
        storeMessage(t.deps, {
          origin: 'live',
          subaccountId,
          threadId: id,
          role: 'user',
          content: `new ${i} first`,
          newThread: { subaccountId, agentId, channel: 'api' },
        }),
        storeMessage(t.deps, {
          origin: 'live',
          subaccountId,
          threadId: id,
          role: 'assistant',
          content: `new ${i} reply`,
        }),
      ]),
      storeMessage(t.deps, { origin: 'live', subaccountId, threadId: older.id, role: 'assistant', content: 'older 2' }),
    ]);
    const olderStored = await getThreadWithMessages(t.deps.db, subaccountId, older.id);
    expect(olderStored?.thread).toMatchObject({ messageCount: 2, lastMessage: 'older 2' });
    for (const [i, id] of fresh.entries()) {
      const stored = await getThreadWithMessages(t.deps.db, subaccountId, id);
      expect(stored?.messages.map((m) => m.content)).toEqual([`new ${i} first`, `new ${i} reply`]);
      expect(stored?.thread).toMatchObject({ messageCount: 2, lastMessage: `new ${i} reply`, channel: 'api' });
    }
  });

  it("stores a conversation's turns, each a question with its answer, with the thread's summary", async () => {
    const threadId = newId('thread');
    const newThread = { subaccountId, agentId, channel: 'api' as const, contactIdentifier: 'visitor-1' };
    const turn = (n: number, first = false) =>
      Promise.all([
        storeMessage(t.deps, {
          origin: 'live',
          subaccountId,
          threadId,
          role: 'user',
          content: `question ${n}`,
          ...(first ? { newThread } : {}),
        }),
        storeMessage(t.deps, {
          origin: 'live',
          subaccountId,
          threadId,
          role: 'assistant',
          content: `answer ${n}`,
          model: 'm',
        }),
      ]);
    await turn(1, true);
    await turn(2);
    await storeMessage(t.deps, {
      origin: 'live',
      subaccountId,
      threadId,
      role: 'human',
      content: 'a person',
      userId: 'usr_p',
    });
    const stored = await getThreadWithMessages(t.deps.db, subaccountId, threadId);
    expect(stored?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'question 1'],
      ['assistant', 'answer 1'],
      ['user', 'question 2'],
      ['assistant', 'answer 2'],
      ['human', 'a person'],
    ]);
    expect(stored?.messages[1]).toMatchObject({ model: 'm', sources: [], toolCalls: [], offline: false });
    const [human] = await t.deps.db.select().from(messages).where(eq(messages.content, 'a person'));
    expect(human).toMatchObject({ userId: 'usr_p', threadId, subaccountId });
    expect(stored?.thread).toMatchObject({
      messageCount: 5,
      lastMessage: 'a person',
      contactIdentifier: 'visitor-1',
      channel: 'api',
    });
  });

  it('fails only the message whose thread does not exist', async () => {
    const thread = await createThread();
    const results = await Promise.allSettled([
      storeMessage(t.deps, { origin: 'live', subaccountId, threadId: thread.id, role: 'user', content: 'fine' }),
      storeMessage(t.deps, { origin: 'live', subaccountId, threadId: 'thr_missing', role: 'user', content: 'orphan' }),
      storeMessage(t.deps, {
        origin: 'live',
        subaccountId,
        threadId: thread.id,
        role: 'assistant',
        content: 'also fine',
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await getThreadWithMessages(t.deps.db, subaccountId, thread.id);
    expect(stored?.thread.messageCount).toBe(2);
  });

  // The history a reply sends the model: kept in memory on the embedded database (history.ts).
  const kept = (threadId: string, limit = 20) =>
    recentMessages(t.deps.db, threadId, limit, { embedded: embeddedDatabase(t.deps) });
  const stored = (threadId: string, limit = 20) => recentMessages(t.deps.db, threadId, limit, { embedded: false });
  const contents = (rows: { content: string }[]) => rows.map((row) => row.content);

  it('answers what the database holds: a new thread, a person joining in, the last 20 of a long one', async () => {
    const threadId = newId('thread');
    const newThread = { subaccountId, agentId, channel: 'widget' as const };
    await storeMessage(t.deps, { origin: 'live', subaccountId, threadId, role: 'user', content: 'm0', newThread });
    expect(contents(await kept(threadId))).toEqual(['m0']);
    await Promise.all([
      storeMessage(t.deps, { origin: 'live', subaccountId, threadId, role: 'assistant', content: 'm1' }),
      storeMessage(t.deps, {
        origin: 'live',
        subaccountId,
        threadId,
        role: 'human',
        content: 'm2',
        userId: 'usr_person',
      }),
    ]);
    expect(contents(await kept(threadId))).toEqual(['m0', 'm1', 'm2']);
    for (let n = 3; n < 25; n += 1) {
      await storeMessage(t.deps, {
        origin: 'live',
        subaccountId,
        threadId,
        role: n % 2 ? 'assistant' : 'user',
        content: `m${n}`,
      });
    }
    expect(await kept(threadId)).toEqual(await stored(threadId));
    expect(contents(await kept(threadId, 5))).toEqual(['m20', 'm21', 'm22', 'm23', 'm24']);
  });

  it('keeps the message written while the thread was being read', async () => {
    // A thread this process has not written before (as after a restart): nothing of it in memory.
    const threadId = newId('thread');
    await t.deps.db.insert(threads).values({ id: threadId, subaccountId, agentId, channel: 'widget' });
    await storeMessage(t.deps, { origin: 'live', subaccountId, threadId, role: 'user', content: 'first' });
    const reading = kept(threadId);
    await storeMessage(t.deps, { origin: 'live', subaccountId, threadId, role: 'assistant', content: 'second' });
    await reading;
    expect(contents(await kept(threadId))).toEqual(['first', 'second']);
  });
});
