import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/**
 * The journeys run one at a time against one server of their own (e2e/serve.mjs: a fresh database
 * with the seeded demo agency). `npm test` runs E2E_GROUPS such runs side by side, each on its own
 * port and server: group E2E_GROUP (1-based) takes its share of the journey files, balanced by size.
 */
const GROUPS = Math.max(1, Number(process.env.E2E_GROUPS ?? 1));
const GROUP = Math.min(GROUPS, Math.max(1, Number(process.env.E2E_GROUP ?? 1)));
const PORT = Number(process.env.E2E_PORT ?? 3199);

/** The journey files of this group: the largest first, each to the group with the least so far. */
const filesOfGroup = (): string[] => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'e2e');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => ({ name, size: statSync(path.join(dir, name)).size }))
    .sort((a, b) => b.size - a.size || a.name.localeCompare(b.name));
  const groups = Array.from({ length: GROUPS }, () => ({ size: 0, names: [] as string[] }));
  for (const file of files) {
    const lightest = groups.reduce((least, group) => (group.size < least.size ? group : least));
    lightest.size += file.size;
    lightest.names.push(file.name);
  }
  return groups[GROUP - 1]?.names ?? [];
};

export default defineConfig({
  testDir: 'e2e',
  ...(GROUPS > 1 ? { testMatch: filesOfGroup(), outputDir: `test-results/group-${GROUP}` } : {}),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
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
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(PORT) },
  },
});
