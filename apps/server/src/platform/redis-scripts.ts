import type { Redis } from 'ioredis';

/**
 * The Lua scripts the app runs on Redis, each one command and one reply for work that would take
 * several. They are defined on a client as soon as it is made (createDeps): a command an
 * auto-pipeline of ioredis has begun before it was defined cannot be sent ("pipeline[name] is not a
 * function"). ioredis sends a script by its hash, and whole when Redis does not know it (a new or
 * restarted Redis).
 */

/**
 * KEYS: the gates' counters, then the others. ARGV: the number of gates, every key's expiry in
 * seconds, the gates' limits. Each count pushes its key's expiry: the window is part of the key,
 * so that is harmless (and works before Redis 7). Answers the counts; only the gates' when one of
 * them is over its limit, the others then left as they were.
 */
const INCREMENT_GATED = `
local gates = tonumber(ARGV[1])
local counts = {}
for i = 1, #KEYS do
  if i == gates + 1 then
    for g = 1, gates do
      if counts[g] > tonumber(ARGV[1 + #KEYS + g]) then return counts end
    end
  end
  counts[i] = redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ARGV[1 + i])
end
return counts`;

/** ARGV: channel, message, channel, message... Each is published in turn. */
const PUBLISH_ALL = `
for i = 1, #ARGV, 2 do
  redis.call('PUBLISH', ARGV[i], ARGV[i + 1])
end
return #ARGV / 2`;

interface ScriptCommands {
  switchboardIncrementGated(...args: (string | number)[]): Promise<number[]>;
  switchboardPublishAll(...args: string[]): Promise<number>;
}

const defined = new WeakSet<Redis>();

/** Defines the scripts on this client (once). */
export const defineRedisScripts = (redis: Redis): void => {
  if (defined.has(redis)) return;
  redis.defineCommand('switchboardIncrementGated', { lua: INCREMENT_GATED });
  redis.defineCommand('switchboardPublishAll', { lua: PUBLISH_ALL, numberOfKeys: 0 });
  defined.add(redis);
};

const commands = (redis: Redis): ScriptCommands => {
  defineRedisScripts(redis);
  return redis as unknown as ScriptCommands;
};

/** Runs INCREMENT_GATED: the number of keys, the keys, then its ARGV. */
export const incrementGatedScript = (redis: Redis, ...args: (string | number)[]): Promise<number[]> =>
  commands(redis).switchboardIncrementGated(...args);

/** Publishes each message to its channel, in order: channel, message, channel, message... */
export const publishAllScript = (redis: Redis, ...channelsAndMessages: string[]): Promise<number> =>
  commands(redis).switchboardPublishAll(...channelsAndMessages);
