#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild, ensureChromium, ensureDependencies, root } from './lib.mjs';

/**
 * Runs every benchmark in scripts/bench/ (each prints its own figures and targets), one after the
 * other so they do not compete for the machine. `npm run bench -- <name> [options]` runs the ones
 * whose file name contains <name>, with the options after it. The widget embed benchmark loads
 * pages in Debian's Chromium, installed as for the tests when it is missing. The chaos and capacity
 * benchmarks (PostgreSQL, Redis and HAProxy, minutes long) run only when named.
 */
ensureDependencies();
ensureBuild();
const filter = process.argv[2] ?? '';
const options = process.argv.slice(3);
const dir = path.join(root, 'scripts', 'bench');
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.mjs') && name.includes(filter))
  .filter((name) => filter || !['chaos.mjs', 'capacity.mjs'].includes(name))
  .sort();
if (files.includes('widget-embed.mjs')) ensureChromium();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [path.join(dir, file), ...options], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
if (files.length === 0) console.log('No benchmarks found in scripts/bench/.');
process.exit(failed ? 1 : 0);
