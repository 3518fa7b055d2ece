import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files run in parallel worker processes, twice as many as cores: most of a file's time is
 * spent waiting (sockets, timers, the database), and each file opens a database of its own
 * (an in-memory PGlite, or a scratch PostgreSQL database) and its own Redis key prefix.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? Math.max(2, availableParallelism() * 2));

/**
 * Files that take minutes (every route driven with edge values, every route as another tenant, NUL
 * bytes everywhere, the job engine's timing): started first, so the others fill the remaining
 * workers around them instead of one of them starting last and running alone. After a run with a
 * cache, the slowest files known from it come next (vitest's own order).
 */
const LONG_FILES = [
  'platform/edge-values.test.ts',
  'platform/cross-tenant.test.ts',
  'platform/nul-input.test.ts',
  'platform/jobs/engine.test.ts',
  'portal/client-access.test.ts',
];
const longRank = (spec: TestSpecification) => {
  const rank = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(file));
  return rank < 0 ? LONG_FILES.length : rank;
};
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => longRank(a) - longRank(b));
  }
}

/**
 * The server's test files each start the whole app, and importing its modules was most of a file's
 * own work (vitest's summed import time 987 s in a loaded 15-minute run): they share a worker's
 * imported modules instead of importing them again (`isolate: false`). Each file still opens its
 * own database, Redis prefix and app, and a module's state is keyed by ids no two files share. A
 * file that replaces a module or a global (`vi.mock`, timers, environment, spies) is found by
 * reading it and runs isolated, as do the web app's, the widget's and the packages' files.
 */
const REPLACES_MODULE_OR_GLOBAL = /\bvi\.(mock|doMock|resetModules|stubGlobal|stubEnv|spyOn|useFakeTimers)\b/;
const root = path.dirname(fileURLToPath(import.meta.url));
const serverTests = readdirSync(path.join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `apps/server/src/${file}`);
const SHARED_SERVER_TESTS = serverTests.filter(
  (file) => !REPLACES_MODULE_OR_GLOBAL.test(readFileSync(path.join(root, file), 'utf8')),
);

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers,
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: SHARED_SERVER_TESTS,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.tsx',
            'scripts/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...SHARED_SERVER_TESTS],
        },
      },
    ],
  },
});
