import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** As apps/server/build.mjs bundles it: @switchboard/core inlined, the other packages external. */
const dependencies = Object.keys(JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8')).dependencies);
const external = dependencies.filter((name) => !name.startsWith('@switchboard/'));

/**
 * V8 keeps a loaded script's text for the process's life, one byte a character while every
 * character is Latin-1 and two bytes for all of it otherwise: one curly quote in a regular
 * expression (esbuild escapes them in strings, not in regular expressions) doubled the 1.3 MB of
 * dist/main.js held at rest. Regular expressions write such characters as \u escapes.
 */
describe('the server bundle', () => {
  it('is Latin-1 text throughout, so V8 holds it at one byte a character', async () => {
    const result = await build({
      entryPoints: [path.join(SERVER, 'src/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: [...external, ...external.map((name) => `${name}/*`)],
      minifyWhitespace: true,
      write: false,
      logLevel: 'silent',
    });
    const text = result.outputFiles[0]?.text ?? '';
    const wide = [...new Set([...text].filter((character) => (character.codePointAt(0) ?? 0) > 0xff))];
    expect(wide).toEqual([]);
  });
});
