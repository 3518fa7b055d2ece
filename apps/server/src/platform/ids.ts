import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '@switchboard/core';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes for ids, drawn from a pool filled 4 KiB at a time: one call to the system's random
 * source serves 256 ids (every request and stored row takes one or more). Secrets use newToken.
 */
const POOL_BYTES = 4096;
let pool: Buffer = Buffer.alloc(0);
let used = POOL_BYTES;
const pooledBytes = (count: number): Buffer => {
  if (used + count > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += count;
  return pool.subarray(used - count, used);
};

/** A prefixed, url-safe id such as `agt_3k9x...` (16 random base-36 characters). */
export const newId = (kind: IdKind): string => {
  const bytes = pooledBytes(16);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 36];
  return `${ID_PREFIXES[kind]}_${out}`;
};

/** A 32-hex support id, also written to the server log. */
export const newSupportId = (): string => pooledBytes(16).toString('hex');

/** A unique key (base64url) that needs no secrecy, such as an idempotency key: from the pool. */
export const newKey = (bytes = 12): string => pooledBytes(bytes).toString('base64url');

/** A random secret token (base64url) for links, sessions and API keys. */
export const newToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
