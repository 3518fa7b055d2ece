import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTask, TaskLimitError, TaskRefusal } from './worker-task';

/**
 * Tasks of a server running from its sources: the worker module is TypeScript, bundled on first
 * use and again when one of its files changes.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-worker-task-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SERVE = path.join(import.meta.dirname, 'worker-task.ts');
const LIMITS = { timeoutMs: 20_000, memoryMb: 64 };

const workerModule = (name: string, body: string) => {
  const file = path.join(dir, `${name}.ts`);
  writeFileSync(file, `import { serveTask, TaskRefusal } from ${JSON.stringify(SERVE)};\n${body}\n`);
  return file;
};

describe('runTask on a TypeScript worker module', () => {
  it('answers the task’s result, its refusal, and its time limit', async () => {
    const file = workerModule(
      'answers',
      `serveTask((input: { n: number }) => {
        if (input.n < 0) throw new TaskRefusal('No negative numbers.', 'n');
        if (input.n === 0) for (;;) {}
        return { doubled: input.n * 2 };
      });`,
    );
    const entry = pathToFileURL(file);
    expect(await runTask(entry, { n: 21 }, LIMITS)).toEqual({ doubled: 42 });
    const refused = await runTask(entry, { n: -1 }, LIMITS).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TaskRefusal);
    expect(refused).toMatchObject({ message: 'No negative numbers.', field: 'n' });
    const stalled = await runTask(entry, { n: 0 }, { ...LIMITS, timeoutMs: 1_000 }).catch((error: unknown) => error);
    expect(stalled).toBeInstanceOf(TaskLimitError);
  });

  it('bundles the module again when one of its files changed', async () => {
    const helper = path.join(dir, 'greeting.ts');
    writeFileSync(helper, `export const greeting = 'Hello';\n`);
    const file = workerModule(
      'greets',
      `import { greeting } from './greeting';\nserveTask((name: string) => \`\${greeting}, \${name}\`);`,
    );
    const entry = pathToFileURL(file);
    expect(await runTask(entry, 'Ada', LIMITS)).toBe('Hello, Ada');
    expect(await runTask(entry, 'Ada', LIMITS)).toBe('Hello, Ada');
    writeFileSync(helper, `export const greeting = 'Welcome';\n`);
    // A modification time the first bundle did not see, whatever the file system's resolution.
    const later = new Date(Date.now() + 5_000);
    utimesSync(helper, later, later);
    expect(await runTask(entry, 'Ada', LIMITS)).toBe('Welcome, Ada');
  });

  it('removes a module’s bundles of earlier contents written more than a day ago', async () => {
    const cache = path.join(import.meta.dirname, '../../node_modules/.cache/switchboard-tasks');
    mkdirSync(cache, { recursive: true });
    const old = path.join(cache, 'ages-0000000000000000.mjs');
    const recent = path.join(cache, 'ages-1111111111111111.mjs');
    const other = path.join(cache, 'other-0000000000000000.mjs');
    for (const file of [old, recent, other]) writeFileSync(file, '');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const file of [old, other]) utimesSync(file, twoDaysAgo, twoDaysAgo);
    const file = workerModule('ages', `serveTask(() => ${Date.now()});`);
    expect(typeof (await runTask(pathToFileURL(file), null, LIMITS))).toBe('number');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(other)).toBe(true);
    rmSync(recent);
    rmSync(other);
  });
});
