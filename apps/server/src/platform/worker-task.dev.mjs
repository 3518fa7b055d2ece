// A task's worker when the server runs from its TypeScript sources (tests, npm run dev): the
// worker module is bundled with esbuild as the build bundles it (bundle-options.mjs) into
// node_modules/.cache beside the server's package, once per process and content, and the thread
// starts that bundle. Starting each thread through a TypeScript loader instead compiled the
// worker's modules again in every thread (about 1.5 s of CPU a task). The built server starts the
// bundles in dist/ and never loads this file.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from '../../bundle-options.mjs';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/switchboard-tasks/', import.meta.url));

/** @type {Map<string, Promise<URL>>} */
const bundles = new Map();

const bundle = async (source) => {
  const entry = fileURLToPath(source);
  const result = await build({ ...serverBundleOptions, entryPoints: [entry], write: false });
  const code = result.outputFiles[0].contents;
  const name = `${path.basename(entry, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(CACHE, name);
  if (!existsSync(file)) {
    await mkdir(CACHE, { recursive: true });
    // Written under a name of its own, then renamed: a thread of another process never starts half of it.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return pathToFileURL(file);
};

/** The bundle of the TypeScript worker module at `source` (a file URL), made on first use. */
export const taskBundle = (source) => {
  let made = bundles.get(source);
  if (!made) {
    made = bundle(source).catch((error) => {
      bundles.delete(source);
      throw error;
    });
    bundles.set(source, made);
  }
  return made;
};
