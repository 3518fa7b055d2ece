import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { defineRedisScripts, publishAllScript } from './redis-scripts';

export type Unsubscribe = () => void;

/**
 * Publishes realtime events (evaluation progress, live conversations) to every app process.
 * In-process by default; with Redis every process receives every event through pub/sub.
 */
export interface EventBus {
  publish(channel: string, payload: unknown): Promise<void>;
  subscribe(channel: string, handler: (payload: unknown) => void): Unsubscribe;
  close(): Promise<void>;
}

export const createLocalBus = (): EventBus => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (channel, payload) => {
      emitter.emit(channel, payload);
    },
    subscribe: (channel, handler) => {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
};

/**
 * Redis pub/sub fan-out. An event reaches this process's own subscribers at once (as with the
 * in-process bus) and every other process through Redis; a process ignores its own echo.
 */
export const createRedisBus = (publisher: Redis, prefix = 'sb:bus:'): EventBus => {
  const subscriber = publisher.duplicate();
  const origin = randomUUID();
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const counts = new Map<string, number>();
  const ignore = () => undefined;
  subscriber.on('error', ignore);
  // Subscriptions asked for while Redis was unreachable are made when it is ready.
  subscriber.on('ready', () => {
    for (const channel of counts.keys()) subscriber.subscribe(prefix + channel).catch(ignore);
  });
  subscriber.on('message', (channel: string, message: string) => {
    try {
      const envelope = JSON.parse(message) as { origin: string; payload: unknown };
      if (envelope.origin !== origin) local.emit(channel.slice(prefix.length), envelope.payload);
    } catch {
      // A malformed message from another process is dropped.
    }
  });
  // The events of one turn of the event loop (the messages of many replies) go to Redis as one
  // call of a script that publishes each in order: one command and one reply instead of one each.
  defineRedisScripts(publisher);
  let outgoing: string[] = [];
  let sent: Promise<void> | null = null;
  const send = () => {
    const events = outgoing;
    outgoing = [];
    sent = null;
    // While Redis is unreachable, events reach this process's subscribers only.
    if (events.length === 0 || publisher.status !== 'ready') return Promise.resolve();
    return publishAllScript(publisher, ...events).then(ignore, ignore);
  };
  return {
    publish: async (channel, payload) => {
      local.emit(channel, payload);
      if (publisher.status !== 'ready') return;
      outgoing.push(prefix + channel, JSON.stringify({ origin, payload }));
      if (outgoing.length >= MAX_EVENTS_PER_CALL * 2) {
        await send();
        return;
      }
      sent ??= new Promise<void>((resolve) => setImmediate(() => resolve(send())));
      await sent;
    },
    subscribe: (channel, handler) => {
      local.on(channel, handler);
      const count = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, count);
      if (count === 1) subscriber.subscribe(prefix + channel).catch(ignore);
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        if (left <= 0) {
          counts.delete(channel);
          subscriber.unsubscribe(prefix + channel).catch(ignore);
        } else counts.set(channel, left);
      };
    },
    close: async () => {
      local.removeAllListeners();
      subscriber.disconnect();
    },
  };
};

/** Events published by one script call at most (a busier turn of the event loop makes several). */
const MAX_EVENTS_PER_CALL = 500;
