import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ZEnv } from './env';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('the documented settings', () => {
  const example = readFileSync(path.join(root, '.env.example'), 'utf8');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it.each(Object.keys(ZEnv.shape))('.env.example and the README list %s', (key) => {
    expect(example).toMatch(new RegExp(`^#? ?${key}=`, 'm'));
    expect(readme).toContain(`\`${key}\``);
  });
});
