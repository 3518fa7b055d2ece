import { defineConfig } from '@playwright/test';

/**
 * The journeys, one file at a time in each of E2E_WORKERS workers (default 1; `npm test` runs 2),
 * each worker against a server of its own (e2e/fixtures.ts): a fresh database with the seeded demo
 * agency, on port E2E_PORT (default 3199) plus the worker's index. Journey files import `test`
 * from e2e/fixtures.ts, which gives them that server as their baseURL.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Math.max(1, Number(process.env.E2E_WORKERS ?? 1)),
  reporter: [['list']],
  use: {
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
