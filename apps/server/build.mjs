import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Bundles the server (with @switchboard/core inlined) into apps/server/dist/main.js, and the
 * worker threads of tasks on uploads (platform/worker-task.ts) beside it: the document reader's
 * into dist/extract-worker.js, the contacts CSV import's into dist/contacts-import-worker.js.
 */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@switchboard/'));

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    'extract-worker': new URL('./src/features/knowledge/extract-worker.ts', import.meta.url).pathname,
    'contacts-import-worker': new URL('./src/features/channels/contacts-import-worker.ts', import.meta.url).pathname,
  },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
