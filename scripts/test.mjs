#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { ensureBuild, ensureChromium, ensureDependencies, root } from './lib.mjs';

/** Runs every test: unit and integration (vitest), then the browser journeys (Playwright). */
ensureDependencies();
const hasBrowser = ensureChromium();
ensureBuild();

const step = (name, args) => {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status === 0;
};

const unit = step('unit and integration tests', ['vitest', 'run']);
const e2e = hasBrowser ? step('browser journeys', ['playwright', 'test']) : false;
if (!unit || !e2e) {
  console.error(`\nTests failed: ${[!unit && 'unit/integration', !e2e && 'browser'].filter(Boolean).join(', ')}`);
  process.exit(1);
}
console.log('\nAll tests passed.');
