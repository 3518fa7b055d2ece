import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { serverBundleOptions } from './bundle-options.mjs';

/**
 * Bundles the server (with @switchboard/core inlined) into apps/server/dist/main.js, and the
 * worker threads of tasks on uploads (platform/worker-task.ts) beside it: the document reader's
 * into dist/extract-worker.js, the contacts CSV import's into dist/contacts-import-worker.js.
 */
await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    'extract-worker': new URL('./src/features/knowledge/extract-worker.ts', import.meta.url).pathname,
    'contacts-import-worker': new URL('./src/features/channels/contacts-import-worker.ts', import.meta.url).pathname,
  },
  outdir: new URL('./dist', import.meta.url).pathname,
  ...serverBundleOptions,
  // Stack traces are mapped by the source map (`npm start` enables them), which names the
  // sources in apps/server/src without carrying their text: Node parses a loaded module's map
  // whole and keeps it for the process's life, and the script's own text is kept too, so both
  // are kept small (whitespace only is minified; names stay as written).
  sourcemap: true,
  sourcesContent: false,
  minifyWhitespace: true,
});

/**
 * The embedded database's empty folder (what PostgreSQL's initdb creates), made once here into
 * dist/pgdata-template: PGlite's initdb takes about 800 MB at its peak (a second PostgreSQL and
 * the initdb program, each with its own WebAssembly memory, and the folder as an archive in
 * memory), so a server's first start on a new DATA_DIR copies this folder instead and stays within
 * what it needs to serve. Made in a child process, which gives that memory back when it ends.
 */
const { spawnSync } = await import('node:child_process');
const { existsSync, mkdtempSync, renameSync, rmSync } = await import('node:fs');
const path = await import('node:path');
const dist = new URL('./dist', import.meta.url).pathname;
const template = path.join(dist, 'pgdata-template');
const pglite = JSON.parse(
  readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
);
const stamp = path.join(template, 'PGLITE_VERSION');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== pglite.version) {
  const scratch = mkdtempSync(path.join(dist, '.pgdata-'));
  const script = `
    const { writeFileSync } = require('node:fs');
    const { PGlite } = require('@electric-sql/pglite');
    PGlite.create(process.argv[1])
      .then((client) => client.close())
      .then(() => writeFileSync(process.argv[1] + '/PGLITE_VERSION', process.argv[2]))
      .catch((error) => { console.error(error); process.exit(1); });`;
  const made = spawnSync(process.execPath, ['-e', script, path.join(scratch, 'data'), pglite.version], {
    cwd: new URL('.', import.meta.url).pathname,
    stdio: 'inherit',
  });
  if (made.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error('Creating the embedded database template failed');
  }
  rmSync(template, { recursive: true, force: true });
  renameSync(path.join(scratch, 'data'), template);
  rmSync(scratch, { recursive: true, force: true });
}
