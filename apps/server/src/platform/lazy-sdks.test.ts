import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * SDKs and libraries a server at rest does not hold (docs/performance.md, "What a server at rest
 * holds"): the server's code loads them where they are first used (`await import(…)`, or
 * `onFirstUse` in platform/on-first-use.ts), and imports only their types statically. A static
 * import of one anywhere puts it back in memory at start.
 */
const LAZY = [
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  '@modelcontextprotocol/sdk',
  'stripe',
  'twilio',
  'nodemailer',
  'ioredis',
  'pg',
  'pino-pretty',
  'libphonenumber-js',
  'papaparse',
  'parse5',
];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // Test helpers (stubs of outside services) run in tests only.
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });

/** Static imports of values (not `import type`) in a file: the module names. */
const STATIC_VALUE_IMPORT = /^import\s+(?!type\b)[^;]*?\bfrom\s*'([^']+)'/gms;

describe('SDKs loaded on first use', () => {
  it('are imported statically by no server code, only their types', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(STATIC_VALUE_IMPORT)) {
        const name = match[1] ?? '';
        // A scoped SDK counts with its entry points (`@modelcontextprotocol/sdk/client/index.js`);
        // a small file of another package (`pg/lib/utils.js`) does not load the package.
        if (LAZY.some((lazy) => name === lazy || (lazy.startsWith('@') && name.startsWith(`${lazy}/`)))) {
          found.push(`${path.relative(SRC, file)}: ${name}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('tells a static import from a type import', () => {
    const text = "import type { ToolSet } from 'ai';\nimport { tool } from 'ai';\nimport Stripe from 'stripe';\n";
    expect([...text.matchAll(STATIC_VALUE_IMPORT)].map((match) => match[1])).toEqual(['ai', 'stripe']);
  });
});
