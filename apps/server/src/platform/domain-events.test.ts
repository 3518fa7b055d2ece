import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Tx } from '../db/client';
import { openTestDeps } from '../testing/harness';
import type { Deps } from './deps';
import {
  type DomainEventPayload,
  defineReaction,
  publish,
  registerReactions,
  unregisterReaction,
} from './domain-events';

let opened: Awaited<ReturnType<typeof openTestDeps>>;
let deps: Deps;

beforeAll(async () => {
  opened = await openTestDeps();
  deps = opened.deps;
  await deps.db.execute(sql`CREATE TABLE reaction_probe (id text PRIMARY KEY)`);
});

afterAll(async () => {
  await opened.close();
});

const names: string[] = [];
afterEach(() => {
  for (const name of names.splice(0)) unregisterReaction(name);
});

const stored = (content: string): DomainEventPayload<'message.stored'> => ({
  subaccountId: 'sub_1',
  threadId: 'thr_1',
  origin: 'live',
  message: { id: 'msg_1', role: 'user', content, model: null },
});

const react = (name: string, handle: (payload: DomainEventPayload<'message.stored'>, tx?: Tx) => Promise<void>) => {
  names.push(name);
  registerReactions([
    defineReaction({ event: 'message.stored', name, handle: (_deps, payload, tx) => handle(payload, tx) }),
  ]);
};

const probeIds = async () =>
  rowsOf<{ id: string }>(await deps.db.execute(sql`SELECT id FROM reaction_probe ORDER BY id`)).map((row) => row.id);

describe('domain events', () => {
  it('runs the reactions of the event in the order they were registered, with the parsed payload', async () => {
    const seen: string[] = [];
    react('test.first', async (payload) => {
      seen.push(`first:${payload.message.content}`);
    });
    react('test.second', async (payload) => {
      seen.push(`second:${payload.message.content}`);
    });
    await publish(deps, 'message.stored', {
      ...stored('hello'),
      unexpected: true,
    } as DomainEventPayload<'message.stored'>);
    expect(seen).toEqual(['first:hello', 'second:hello']);
  });

  it('registers a reaction once however often the list is registered (one app build after another)', async () => {
    let runs = 0;
    react('test.once', async () => {
      runs += 1;
    });
    react('test.once', async () => {
      runs += 1;
    });
    await publish(deps, 'message.stored', stored('once'));
    expect(runs).toBe(1);
  });

  it('refuses a payload that does not fit its schema before any reaction runs', async () => {
    let runs = 0;
    react('test.never', async () => {
      runs += 1;
    });
    const wrong = { ...stored('x'), origin: 'production' } as unknown as DomainEventPayload<'message.stored'>;
    await expect(publish(deps, 'message.stored', wrong)).rejects.toThrow();
    expect(runs).toBe(0);
  });

  it("writes inside the publisher's transaction: kept with the change, rolled back with it", async () => {
    react('test.write', async (payload, tx) => {
      await tx?.execute(sql`INSERT INTO reaction_probe (id) VALUES (${payload.message.content})`);
    });
    await deps.db.transaction(async (tx) => {
      await publish(deps, 'message.stored', stored('kept'), tx);
    });
    await expect(
      deps.db.transaction(async (tx) => {
        await publish(deps, 'message.stored', stored('lost'), tx);
        throw new Error('the change fails after its event');
      }),
    ).rejects.toThrow('the change fails after its event');
    expect(await probeIds()).toEqual(['kept']);
  });

  it('fails the change when a reaction inside its transaction throws', async () => {
    react('test.refuse', async () => {
      throw new Error('refused by a reaction');
    });
    await expect(
      deps.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO reaction_probe (id) VALUES ('change')`);
        await publish(deps, 'message.stored', stored('refused'), tx);
      }),
    ).rejects.toThrow('refused by a reaction');
    expect(await probeIds()).not.toContain('change');
  });
});
