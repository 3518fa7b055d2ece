import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from './env';
import { AppError } from './errors';

/**
 * Secrets at rest (provider keys, Twilio tokens): AES-256-GCM with a 32-byte key from
 * ENCRYPTION_KEY, else a key generated once into DATA_DIR/encryption.key (mode 0600).
 * Stored form: `v1:<iv base64url>:<tag base64url>:<ciphertext base64url>`.
 */

const keys = new Map<string, Buffer>();

export const encryptionKey = (env: Env): Buffer => {
  if (env.ENCRYPTION_KEY) return Buffer.from(env.ENCRYPTION_KEY, 'hex');
  const file = path.join(env.DATA_DIR, 'encryption.key');
  const cached = keys.get(file);
  if (cached) return cached;
  let key: Buffer;
  if (existsSync(file)) {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new AppError('DECRYPTION_KEY_MISSING', `The key in ${file} is not 32 bytes of hex`);
  } else {
    mkdirSync(env.DATA_DIR, { recursive: true });
    key = randomBytes(32);
    try {
      writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch {
      // Another process wrote it first: use theirs.
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    }
  }
  keys.set(file, key);
  return key;
};

export const encryptSecret = (env: Env, plain: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(env), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    ':',
  );
};

export const decryptSecret = (env: Env, stored: string): string => {
  const [version, iv, tag, body] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) {
    throw new AppError('API_KEY_DECRYPTION_FAILED', 'The stored key could not be decrypted. Save it again.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(env), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new AppError('API_KEY_DECRYPTION_FAILED', 'The stored key could not be decrypted. Save it again.');
  }
};

/** The last four characters of a secret behind a mask, e.g. `••••••••abcd`. */
export const maskTail = (secret: string): string => secret.slice(-4);
