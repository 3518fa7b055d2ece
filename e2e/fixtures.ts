import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

const FIRST_PORT = Number(process.env.E2E_PORT ?? 3199);
const SERVE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.mjs');
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
      // As Playwright's own web server: the server's log lines are left out, its errors shown. The
      // IPC channel closes when this worker ends in any way, and serve.mjs then stops the server.
      const server = spawn(process.execPath, [SERVE], {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
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
