import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';

/**
 * Starting the server as a person does (the real entry point): a second process on the same
 * embedded database, or on a taken port, stops with a one-line message; a lock left by a killed
 * process does not block the next start.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = ['--import', 'tsx', 'apps/server/src/main.ts'];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-start-'));
const running: ChildProcess[] = [];

const envFor = (port: number, dir: string) => ({
  PATH: process.env.PATH,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
});

const startInBackground = async (port: number, dir: string) => {
  const child = spawn(process.execPath, entry, { cwd: root, env: envFor(port, dir), stdio: 'ignore' });
  running.push(child);
  for (let i = 0; i < 300; i += 1) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
};

const startAndExpectFailure = (port: number, dir: string) =>
  spawnSync(process.execPath, entry, { cwd: root, env: envFor(port, dir), encoding: 'utf8', timeout: 60_000 });

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

describe('starting the server', () => {
  it('stops a second process on the same DATA_DIR and a process on a taken port, each with one clear line', async () => {
    const port = await freePort();
    const first = await startInBackground(port, dataDir);

    const sameData = startAndExpectFailure(await freePort(), dataDir);
    expect(sameData.status).toBe(1);
    expect(sameData.stderr).toContain(`The embedded database in ${path.join(dataDir, 'pglite')} is in use`);
    expect(sameData.stderr).not.toMatch(/\n\s+at /);

    const samePort = startAndExpectFailure(port, mkdtempSync(path.join(os.tmpdir(), 'switchboard-start-')));
    expect(samePort.status).toBe(1);
    expect(samePort.stderr).toContain(`Port ${port} is already in use`);
    expect(samePort.stderr).not.toMatch(/\n\s+at /);

    // A lock left by a process killed with -9 does not stop the next start.
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const next = await startInBackground(await freePort(), dataDir);
    next.kill('SIGTERM');
    await new Promise((resolve) => next.once('exit', resolve));
  }, 120_000);
});
