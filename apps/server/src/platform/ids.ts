import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '@switchboard/core';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A prefixed, url-safe id such as `agt_3k9x...` (16 random base-36 characters). */
export const newId = (kind: IdKind): string => {
  const bytes = randomBytes(16);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 36];
  return `${ID_PREFIXES[kind]}_${out}`;
};

/** A 32-hex support id, also written to the server log. */
export const newSupportId = (): string => randomBytes(16).toString('hex');

/** A random secret token (base64url) for links, sessions and API keys. */
export const newToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
