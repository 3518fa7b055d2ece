// A task's worker when the server runs from its TypeScript sources (tests, npm run dev): the
// worker module is bundled with esbuild as the build bundles it (bundle-options.mjs) into the
// server package's node_modules/.cache, and the thread starts that bundle. A process
// bundles a module once and again only when one of the bundle's source files changed (an edit
// during npm run dev). Starting each thread through a TypeScript loader instead compiled the
// worker's modules again in every thread (about 1.5 s of CPU a task). The built server starts the
// bundles in dist/ and never loads this file.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from '../../bundle-options.mjs';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/switchboard-tasks/', import.meta.url));
/** A module's bundles of earlier contents are removed once this old (a thread reads its file as it starts). */
const STALE_MS = 24 * 60 * 60 * 1000;

/** @type {Map<string, Promise<{ url: URL, sources: Map<string, number> }>>} */
const bundles = new Map();

/** The modification time of each of a bundle's source files. */
const modified = async (files) =>
  new Map(await Promise.all(files.map(async (file) => [file, (await stat(file)).mtimeMs])));

/** The module's bundles other than `keep` written more than STALE_MS ago (each edit during npm run dev writes one). */
const removeStale = async (module, keep) => {
  const now = Date.now();
  for (const name of await readdir(CACHE)) {
    if (name === keep || !name.startsWith(`${module}-`)) continue;
    const file = path.join(CACHE, name);
    const written = await stat(file).then(
      (info) => info.mtimeMs,
      () => now,
    );
    if (now - written > STALE_MS) await rm(file, { force: true });
  }
};

const bundle = async (source) => {
  const entry = fileURLToPath(source);
  const result = await build({ ...serverBundleOptions, entryPoints: [entry], write: false, metafile: true });
  const code = result.outputFiles[0].contents;
  const name = `${path.basename(entry, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(CACHE, name);
  if (!existsSync(file)) {
    await mkdir(CACHE, { recursive: true });
    // Written under a name of its own, then renamed: a thread of another process never starts half of it.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, code);
    await rename(partial, file);
    await removeStale(path.basename(entry, '.ts'), name);
  }
  return {
    url: pathToFileURL(file),
    sources: await modified(Object.keys(result.metafile.inputs).map((input) => path.resolve(input))),
  };
};

const changed = async (sources) => {
  try {
    const now = await modified([...sources.keys()]);
    return [...sources].some(([file, mtime]) => now.get(file) !== mtime);
  } catch {
    return true;
  }
};

/** The bundle of the TypeScript worker module at `source` (a file URL), made again when one of its files changed. */
export const taskBundle = async (source) => {
  let made = bundles.get(source);
  if (made && (await changed((await made).sources))) made = undefined;
  if (!made) {
    const making = bundle(source);
    bundles.set(source, making);
    making.catch(() => bundles.get(source) === making && bundles.delete(source));
    made = making;
  }
  return (await made).url;
};
