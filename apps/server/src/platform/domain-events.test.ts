import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Tx } from '../db/client';
import { openTestDeps } from '../testing/harness';
import type { Deps } from './deps';
import {
  type DomainEventPayload,
  defineReaction,
  listenForDomainEvents,
  publish,
  reactionJob,
  registerReactions,
  unregisterReaction,
} from './domain-events';
import { createLocalBus } from './event-bus';
import { RetryableJobError } from './jobs';
import { jobs } from './jobs.schema';

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

describe('outbox: reactions after the commit', () => {
  const after = (
    name: string,
    handle: (payload: DomainEventPayload<'message.stored'>, db: Deps['db']) => Promise<void>,
  ) => {
    names.push(name);
    registerReactions([
      defineReaction({
        event: 'message.stored',
        name,
        runs: 'after-commit',
        wants: (_deps, payload) => !payload.message.content.startsWith('ignored'),
        handle: (inner, payload) => handle(payload, inner.db),
      }),
    ]);
  };
  const outboxOf = async (name: string) =>
    (await deps.db.select().from(jobs).where(eq(jobs.type, 'domain-event.react'))).filter(
      (job) => (job.payload as { reaction: string }).reaction === name,
    );
  /** Runs an outbox job as a worker would (the same job may be run again, as after a crash). */
  const runJob = (job: typeof jobs.$inferSelect) =>
    reactionJob.run(deps, {
      id: job.id,
      payload: job.payload,
      accountId: null,
      subaccountId: null,
      attempt: 1,
      maxAttempts: 12,
      signal: new AbortController().signal,
    });

  it('is written with a committed change only, runs after it, and acts once when its job runs twice', async () => {
    after('test.after', async (payload, db) => {
      await db.execute(sql`INSERT INTO reaction_probe (id) VALUES (${`after-${payload.message.content}`})`);
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
    await publish(deps, 'message.stored', stored('ignored by its reaction'));
    // Nothing ran yet: the reaction waits in the outbox for the commit.
    expect((await probeIds()).filter((id) => id.startsWith('after-'))).toEqual([]);
    const queued = await outboxOf('test.after');
    expect(
      queued.map((job) => (job.payload as { payload: { message: { content: string } } }).payload.message.content),
    ).toEqual(['kept']);
    const [job] = queued;
    if (!job) throw new Error('no outbox job');
    await runJob(job);
    // The process died before the job was marked finished: another process runs it again.
    await runJob(job);
    expect((await probeIds()).filter((id) => id.startsWith('after-'))).toEqual(['after-kept']);
  });

  it('does not fail the change when it fails, and is retried until it succeeds', async () => {
    let calls = 0;
    after('test.flaky', async (payload, db) => {
      calls += 1;
      if (calls === 1) throw new Error('the mail server is down');
      await db.execute(sql`INSERT INTO reaction_probe (id) VALUES (${`flaky-${payload.message.content}`})`);
    });
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO reaction_probe (id) VALUES ('flaky-change')`);
      await publish(deps, 'message.stored', stored('retried'), tx);
    });
    expect(await probeIds()).toContain('flaky-change');
    const [job] = await outboxOf('test.flaky');
    if (!job) throw new Error('no outbox job');
    await expect(runJob(job)).rejects.toBeInstanceOf(RetryableJobError);
    expect(await probeIds()).not.toContain('flaky-retried');
    await runJob(job);
    expect(await probeIds()).toContain('flaky-retried');
  });

  it('queues an event that happens once per key once, however often it is published', async () => {
    names.push('test.once');
    registerReactions([
      defineReaction({ event: 'lead.identified', name: 'test.once', runs: 'after-commit', handle: async () => {} }),
    ]);
    const lead = { subaccountId: 'sub_1', threadId: 'thr_once', email: 'lee@example.test', name: 'Lee' };
    // Each message of the identified visitor publishes it again, from whichever process took it.
    await Promise.all([publish(deps, 'lead.identified', lead), publish(deps, 'lead.identified', lead)]);
    await publish(deps, 'lead.identified', lead);
    expect(await outboxOf('test.once')).toHaveLength(1);
    await publish(deps, 'lead.identified', { ...lead, email: 'lee@work.example.test' });
    expect(await outboxOf('test.once')).toHaveLength(2);
  });
});

describe('reactions in every process', () => {
  it('reach each process listening on the event bus, the publisher included', async () => {
    const bus = createLocalBus();
    const one: Deps = { ...deps, bus };
    const two: Deps = { ...deps, bus };
    const heard: string[] = [];
    names.push('test.every');
    registerReactions([
      defineReaction({
        event: 'provider_key.changed',
        name: 'test.every',
        runs: 'every-process',
        handle: async (inner, { accountId }) => {
          heard.push(`${inner === one ? 'one' : 'two'}:${accountId}`);
        },
      }),
    ]);
    const stops = [listenForDomainEvents(one), listenForDomainEvents(two)];
    await publish(one, 'provider_key.changed', { accountId: 'acc_1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.sort()).toEqual(['one:acc_1', 'two:acc_1']);
    for (const stop of stops) stop();
  });
});
