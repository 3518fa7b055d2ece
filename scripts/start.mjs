#!/usr/bin/env node
/**
 * `npm start`: installs what is missing and builds what changed (in a short-lived child process,
 * so what those checks read is not kept), then runs the server in this same process: the one
 * process that stays is the server, Ctrl+C and SIGTERM reach it directly, and no wrapper is left
 * holding memory (package.json's script execs node, so npm's shell is not left either; npm itself
 * stays as the parent, about 55 MB: `node scripts/start.mjs` is the same start without it).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

if (process.argv[2] === '--checks') {
  const { ensureBuild, ensureDependencies } = await import('./lib.mjs');
  ensureDependencies();
  ensureBuild();
} else {
  const here = fileURLToPath(import.meta.url);
  const checks = spawnSync(process.execPath, [here, '--checks'], { stdio: 'inherit' });
  if (checks.status !== 0) process.exit(checks.status ?? 1);
  const root = path.resolve(path.dirname(here), '..');
  process.setSourceMapsEnabled(true);
  process.chdir(root);
  await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
}
