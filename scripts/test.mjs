#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ensureBuild, ensureChromium, ensureDependencies, root } from './lib.mjs';

/**
 * Runs every test: unit and integration (vitest, its files in parallel worker processes) and the
 * browser journeys (Playwright, E2E_WORKERS workers, each against a server of its own), all at
 * once. The journeys wait on the browser and their server between steps and leave the cores idle
 * for a fifth of their time, which the unit files take up (measured on 2 cores: 11.1 minutes
 * together against 13.0 one after the other); vitest then runs one worker more than cores.
 */
ensureDependencies();
const hasBrowser = ensureChromium();
ensureBuild();

const E2E_WORKERS = process.env.E2E_WORKERS ?? '2';

/** Runs a command; with a label, each line of its output is prefixed with it. Resolves to success. */
const runStep = (args, { label, env = {} } = {}) =>
  new Promise((resolve) => {
    const child = spawn('npx', args, {
      cwd: root,
      stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`[${label}] ${line}\n`);
        });
        stream.on('end', () => rest && process.stdout.write(`[${label}] ${rest}\n`));
      }
    }
    child.on('exit', (code) => resolve(code === 0));
  });

/**
 * What a failed journey's page showed when it failed (Playwright's error-context.md: the page's
 * accessibility snapshot) and the end of each journeys' server's log, so a failure seen only in
 * CI can be read from its output.
 */
function printFailedPages() {
  const dir = path.join(root, 'test-results');
  let files = [];
  try {
    files = readdirSync(dir, { recursive: true }).filter((name) => name.endsWith('error-context.md'));
  } catch {
    return;
  }
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const limit = 12_000;
    console.log(`\n=== ${file} ===\n${text.length > limit ? `${text.slice(0, limit)}\n[... cut]` : text}`);
  }
  // Each journeys' worker's server log (e2e/fixtures.ts): its end, where a failure's cause usually is.
  for (const file of files.length ? readdirSync(dir).filter((name) => /^journey-server-\d+\.log$/.test(name)) : []) {
    const lines = readFileSync(path.join(dir, file), 'utf8').trimEnd().split('\n');
    console.log(
      `\n=== test-results/${file}: its last ${Math.min(40, lines.length)} of ${lines.length} lines ===\n${lines.slice(-40).join('\n')}`,
    );
  }
}

const started = Date.now();
const minutes = () => `${((Date.now() - started) / 60_000).toFixed(1)} min`;

const unitWorkers =
  process.env.VITEST_MAX_WORKERS ?? String(hasBrowser ? availableParallelism() + 1 : availableParallelism() * 2);
console.log(
  `\n=== unit and integration tests (${unitWorkers} workers on ${availableParallelism()} cores)${hasBrowser ? ` and browser journeys (${E2E_WORKERS} workers), side by side` : ''} ===`,
);
const unitRun = runStep(['vitest', 'run'], {
  label: hasBrowser ? 'unit' : undefined,
  env: { VITEST_MAX_WORKERS: unitWorkers },
}).then((passed) => {
  console.log(`\n=== unit and integration tests ${passed ? 'passed' : 'failed'} after ${minutes()} ===`);
  return passed;
});
const e2eRun = hasBrowser
  ? runStep(['playwright', 'test'], { label: 'e2e', env: { E2E_WORKERS } }).then((passed) => {
      console.log(`\n=== browser journeys ${passed ? 'passed' : 'failed'} after ${minutes()} ===`);
      return passed;
    })
  : Promise.resolve(false);
const [unit, e2e] = await Promise.all([unitRun, e2eRun]);
if (hasBrowser && !e2e) printFailedPages();
if (!unit || !e2e) {
  console.error(`\nTests failed: ${[!unit && 'unit/integration', !e2e && 'browser'].filter(Boolean).join(', ')}`);
  process.exit(1);
}
console.log('\nAll tests passed.');
