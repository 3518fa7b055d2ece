import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

const FIRST_PORT = Number(process.env.E2E_PORT ?? 3199);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SERVE = path.join(HERE, 'serve.mjs');
/** Where each worker's server writes its log: Playwright's output folder, emptied as a run starts. */
const LOGS = path.join(HERE, '..', 'test-results');
const START_TIMEOUT_MS = 60_000;

const healthy = async (url: string) => {
  try {
    return (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
};

/**
 * The journeys' test: each Playwright worker starts a server of its own (e2e/serve.mjs: a fresh
 * database with the seeded demo agency) on port E2E_PORT plus the worker's index, and the journeys
 * it runs share it as their baseURL. A worker takes the next journey file whenever it finishes
 * one, so the workers stay evenly busy; a worker started again after a failure starts a new server.
 */
export const test = base.extend<object, { journeyServer: string }>({
  journeyServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function uses from its first parameter's pattern.
    async ({}, use, workerInfo) => {
      const port = FIRST_PORT + workerInfo.parallelIndex;
      const url = `http://localhost:${port}`;
      if (await healthy(url)) throw new Error(`Something already answers on port ${port}: stop it, or set E2E_PORT.`);
      // The server's log lines go to test-results/journey-server-<index>.log (appended to by a
      // worker started again), its errors to the run's output. The IPC channel closes when this
      // worker ends in any way, and serve.mjs then stops the server.
      mkdirSync(LOGS, { recursive: true });
      const log = openSync(path.join(LOGS, `journey-server-${workerInfo.parallelIndex}.log`), 'a');
      const server = spawn(process.execPath, [SERVE], {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', log, 'inherit', 'ipc'],
      });
      closeSync(log);
      const exited = new Promise((resolve) => server.once('exit', resolve));
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!(await healthy(url))) {
        if (server.exitCode !== null || Date.now() > deadline) {
          server.kill('SIGKILL');
          throw new Error(`The journeys' server on port ${port} did not start`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await use(url);
      server.kill('SIGTERM');
      await exited;
    },
    { scope: 'worker', timeout: START_TIMEOUT_MS + 30_000 },
  ],
  baseURL: async ({ journeyServer }, use) => use(journeyServer),
});
