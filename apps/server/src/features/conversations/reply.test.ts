import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { replyAsAgent } from './reply';
import { getThreadWithMessages, setThreadHandler } from './repo';

describe('replyAsAgent with the offline model', () => {
  let t: TestApp;
  let accountId: string;
  let subaccountId: string;
  let otherSubaccountId: string;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Reply Agency',
      owner: { email: 'owner@reply.test', name: 'Owner' },
      subaccounts: ['One', 'Two'],
    });
    accountId = agency.accountId;
    [subaccountId = '', otherSubaccountId = ''] = agency.subaccountIds;
    const agent = await seedAgent(t.deps.db, {
      accountId,
      subaccountId,
      firstMessage: 'Welcome to Test Co!',
      systemPrompt: 'You are the assistant of Test Co, a bakery.',
    });
    agentId = agent.id;
  });
  afterAll(() => t.close());

  it('stores the thread, both messages, publishes them and labels the reply offline', async () => {
    const events: unknown[] = [];
    const deltas: string[] = [];
    const stop = t.deps.bus.subscribe(`subaccount:${subaccountId}:conversations`, (payload) => events.push(payload));
    const result = await replyAsAgent(t.deps, {
      agentId,
      accountId,
      subaccountId,
      message: 'Hello',
      channel: 'test',
      onDelta: (text) => deltas.push(text),
    });
    stop();
    expect(result.offline).toBe(true);
    expect(result.message).toBe('Welcome to Test Co!');
    expect(deltas.join('')).toBe('Welcome to Test Co!');
    const stored = await getThreadWithMessages(t.deps.db, subaccountId, result.threadId);
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ threadId: result.threadId, message: { role: 'user', content: 'Hello' } });
  });

  it('does not call the model when a person handles the thread', async () => {
    const first = await replyAsAgent(t.deps, { agentId, accountId, subaccountId, message: 'Hi', channel: 'widget' });
    await setThreadHandler(t.deps.db, { subaccountId, threadId: first.threadId, userId: 'usr_someone' });
    const second = await replyAsAgent(t.deps, {
      agentId,
      accountId,
      subaccountId,
      threadId: first.threadId,
      message: 'Anyone there?',
      channel: 'widget',
    });
    expect(second).toMatchObject({ humanHandled: true, message: '', threadId: first.threadId });
    const stored = await getThreadWithMessages(t.deps.db, subaccountId, first.threadId);
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('keeps the message of a turn whose model call failed, in a new thread and in a known one', async () => {
    const openAiAgent = await seedAgent(t.deps.db, {
      accountId,
      subaccountId,
      provider: 'openai',
      model: 'gpt-4o-mini',
      firstMessage: 'Welcome to Test Co!',
    });
    const turn = { agentId: openAiAgent.id, accountId, subaccountId, channel: 'api' as const };
    const first = await replyAsAgent(t.deps, { ...turn, message: 'Hi' });
    // The account has no OpenAI key and the turn may not fall back to the offline model: the call fails.
    const failing = { ...turn, strict: true };
    await expect(
      replyAsAgent(t.deps, { ...failing, threadId: first.threadId, message: 'Still there?' }),
    ).rejects.toBeTruthy();
    const known = await getThreadWithMessages(t.deps.db, subaccountId, first.threadId);
    expect(known?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Welcome to Test Co!'],
      ['user', 'Still there?'],
    ]);
    const events: { threadId: string }[] = [];
    const stop = t.deps.bus.subscribe(`subaccount:${subaccountId}:conversations`, (payload) =>
      events.push(payload as { threadId: string }),
    );
    await expect(replyAsAgent(t.deps, { ...failing, message: 'Hello?' })).rejects.toBeTruthy();
    stop();
    const fresh = await getThreadWithMessages(t.deps.db, subaccountId, events[0]?.threadId ?? '');
    expect(fresh?.messages.map((m) => [m.role, m.content])).toEqual([['user', 'Hello?']]);
  });

  it("refuses another sub-account's agent", async () => {
    await expect(
      replyAsAgent(t.deps, { agentId, accountId, subaccountId: otherSubaccountId, message: 'Hi', channel: 'api' }),
    ).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
  });
});
