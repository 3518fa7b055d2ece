import { describe, expect, it } from 'vitest';
import { createStore, hostBackend, isExpired, toSaved, worthSaving } from './store';

const message = (sender: 'user' | 'agent', content: string, timestamp = Date.now()) => ({
  id: `${sender}-${content}`,
  content,
  sender,
  timestamp,
});

describe('visitor widget storage', () => {
  it('keeps a contact identifier of preview_ + time + random text, and writes through to the host page', () => {
    const writes: [string, string | null][] = [];
    const store = createStore(
      'wgt_a',
      hostBackend({}, (key, value) => writes.push([key, value])),
    );
    const id = store.contactIdentifier();
    expect(id).toMatch(/^preview_\d{13}_[a-z0-9]+$/);
    expect(store.contactIdentifier()).toBe(id);
    expect(writes[0]).toEqual(['sbw:wgt_a:contact', JSON.stringify(id)]);
  });

  it('saves at most 10 conversations, newest first, and deletes one', () => {
    const store = createStore(
      'wgt_a',
      hostBackend({}, () => {}),
    );
    for (let i = 0; i < 12; i += 1) {
      const chat = {
        id: `c${i}`,
        messages: [message('agent', 'hi'), message('user', `question ${i}`)],
        lastActivity: i,
      };
      store.saveConversation(
        toSaved(chat, { openAIThreadId: null, dbThreadId: null }, { widgetTitle: 'T', aiName: 'A' }),
      );
    }
    const saved = store.conversations();
    expect(saved).toHaveLength(10);
    expect(saved[0]?.id).toBe('c11');
    expect(saved.at(-1)?.id).toBe('c2');
    store.deleteConversation('c11');
    expect(store.conversations()[0]?.id).toBe('c10');
  });

  it('cuts the last message to 50 characters and treats a saved sender of ai as agent', () => {
    const long = 'x'.repeat(80);
    const saved = toSaved(
      { id: 'c', messages: [message('user', long)], lastActivity: 0 },
      { openAIThreadId: 't', dbThreadId: 'thr_1' },
      { widgetTitle: 'T', aiName: 'A' },
    );
    expect(saved.lastMessage).toBe(`${'x'.repeat(50)}...`);
    const store = createStore(
      'wgt_b',
      hostBackend(
        {
          'sbw:wgt_b:conversations': JSON.stringify([
            { ...saved, messages: [{ ...message('agent', 'a'), sender: 'ai' }] },
          ]),
        },
        () => {},
      ),
    );
    expect(store.conversations()[0]?.messages[0]?.sender).toBe('agent');
  });

  it('archives only chats with more than one message and a visitor message; sessions expire after an hour', () => {
    expect(worthSaving([message('agent', 'hello')])).toBe(false);
    expect(worthSaving([message('agent', 'hello'), message('agent', 'again')])).toBe(false);
    expect(worthSaving([message('agent', 'hello'), message('user', 'hi')])).toBe(true);
    const now = Date.now();
    expect(isExpired({ id: 'c', messages: [], lastActivity: now - 59 * 60_000 }, now)).toBe(false);
    expect(isExpired({ id: 'c', messages: [], lastActivity: now - 60 * 60_000 }, now)).toBe(true);
  });
});
