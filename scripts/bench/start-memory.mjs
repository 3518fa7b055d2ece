#!/usr/bin/env node
/**
 * Start memory benchmark: what `npm start` needs from the machine, the whole process tree counted
 * (npm, the start script, the server and any child it starts), sampled with ps every 50 ms.
 *
 * On a fresh temporary data folder (so the database is created, migrated and the demo seeded) and
 * a free port, it runs the start command until the server answers /api/health/ready, waits for it to be at
 * rest (the idle collector has run: START_MEMORY_REST_MS, 12 s by default), then stops it with
 * SIGTERM and checks it exits cleanly. Figures:
 * - first-start peak: the tree's largest RSS at any sample, from launch to rest;
 * - at rest: the tree's RSS once started and idle (each process listed);
 * - the same start once more on the now existing folder (no creation), its peak and rest.
 * Targets: first-start peak <= 300 MB (a 512 MB container starts it), tree at rest <= 200 MB.
 *
 * `--via=npm` (default) launches `npm start`; `--via=node` launches `node scripts/start.mjs` (with the
 * server's V8 options, as package.json's start script gives them), the
 * lean form without npm resident. START_MEMORY_RUNS (1 by default) repeats both starts on new
 * folders and prints each run, then the median of each figure (RSS is what the targets judge; it
 * is steady where timings on a shared machine are not). The server's own share (the tree without
 * npm and its shell) is printed beside the tree.
 *
 * RSS counts a page in every process that maps it: npm and the server are both Node, and the
 * pages of Node's binary they share (about 42 MB) count twice in a sum of RSS. The tree at rest
 * is also printed with shared pages counted once (/proc/PID/smaps_rollup: each process's private
 * pages, plus the shared pages of the process with the most of them, which hold those of the
 * others: Node's binary and libraries). PSS would split them with every process on the machine
 * mapping the same binary, this benchmark's own included. The targets are read on RSS, as set.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../lib.mjs';
import { freePort, root, SERVER_ENV, SERVER_NODE_ARGS, sleep } from './widget-support.js';

const via = (process.argv.find((arg) => arg.startsWith('--via=')) ?? '--via=npm').slice(6);
const REST_MS = Number(process.env.START_MEMORY_REST_MS ?? 12_000);
const RUNS = Math.max(1, Number(process.env.START_MEMORY_RUNS ?? 1));
const SAMPLE_MS = 50;
const MB = 1024 * 1024;
const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;

/** The RSS (bytes) and command of `pid` and all of its descendants. */
const treeOf = (pid) => {
  const out = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' }).stdout;
  const rows = out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, p, pp, rss, args] = line.match(/^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/) ?? [];
      return { pid: Number(p), ppid: Number(pp), rss: Number(rss) * 1024, args };
    });
  const inTree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows)
      if (!inTree.has(row.pid) && inTree.has(row.ppid)) {
        inTree.add(row.pid);
        grew = true;
      }
  }
  return rows.filter((row) => inTree.has(row.pid));
};
const total = (rows) => rows.reduce((sum, row) => sum + row.rss, 0);
/** The tree's memory with shared pages counted once (bytes): private pages, plus the most shared. */
const countedOnce = (rows) => {
  let privatePages = 0;
  let shared = 0;
  for (const row of rows) {
    let text = '';
    try {
      text = readFileSync(`/proc/${row.pid}/smaps_rollup`, 'utf8');
    } catch {
      continue;
    }
    const kb = (field) => Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024;
    privatePages += kb('Private_Clean') + kb('Private_Dirty');
    shared = Math.max(shared, kb('Shared_Clean') + kb('Shared_Dirty'));
  }
  return privatePages + shared;
};
/** The tree without npm and the shell it starts the script with: what the server process itself holds. */
const serverOnly = (rows) => total(rows.filter((row) => !/^(npm|sh)\b|npm-cli/.test(row.args)));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const startOnce = async (dataDir) => {
  const port = await freePort();
  const [command, args] =
    via === 'node' ? [process.execPath, [...SERVER_NODE_ARGS, 'scripts/start.mjs']] : ['npm', ['start']];
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...(via === 'node' ? SERVER_ENV : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let peak = 0;
  let peakRows = [];
  const sample = () => {
    const rows = treeOf(child.pid);
    const sum = total(rows);
    if (sum > peak) {
      peak = sum;
      peakRows = rows;
    }
    return rows;
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  const started = performance.now();
  let serving = false;
  while (!serving && child.exitCode === null && performance.now() - started < 300_000) {
    await sleep(200);
    serving = await fetch(`http://127.0.0.1:${port}/api/health/ready`)
      .then((response) => response.ok)
      .catch(() => false);
  }
  if (!serving) {
    clearInterval(sampler);
    child.kill('SIGKILL');
    throw new Error(`The server did not start:\n${output.slice(-3000)}`);
  }
  const startMs = performance.now() - started;
  await sleep(REST_MS);
  const rest = sample();
  const restOnce = countedOnce(rest);
  clearInterval(sampler);
  child.kill('SIGTERM');
  const stopStarted = performance.now();
  const { code, signal } = await exited;
  return { peak, peakRows, rest, restOnce, startMs, stopMs: performance.now() - stopStarted, code, signal };
};

const listOf = (rows) =>
  rows.map((row) => `      ${mb(row.rss).padStart(7)}  ${row.pid}  ${row.args.slice(0, 90)}`).join('\n');

// Built first, so the figures are the start's own (a build's vite alone takes 600 MB).
ensureBuild();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-start-memory-'));
let failed = false;
const labels = [
  ['first start (new data folder)', true],
  ['second start (existing folder)', false],
];
const figures = labels.map(() => ({ peak: [], rest: [], restServer: [], restOnce: [] }));
try {
  console.log(
    `Start memory (${via === 'node' ? 'node scripts/start.mjs' : 'npm start'}), sampled every ${SAMPLE_MS} ms, ${RUNS} run(s)`,
  );
  for (let runIndex = 0; runIndex < RUNS; runIndex += 1) {
    const folder = path.join(dataDir, `data-${runIndex}`);
    for (const [index, [label, targetPeak]] of labels.entries()) {
      const run = await startOnce(folder);
      const restTotal = total(run.rest);
      const peakOk = run.peak <= 300 * MB;
      const restOk = restTotal <= 200 * MB;
      const stopOk = run.code === 0;
      failed ||= (targetPeak && !peakOk) || !restOk || !stopOk;
      figures[index].peak.push(run.peak);
      figures[index].rest.push(restTotal);
      figures[index].restServer.push(serverOnly(run.rest));
      figures[index].restOnce.push(run.restOnce);
      console.log(`  ${label}: serving after ${(run.startMs / 1000).toFixed(1)} s`);
      console.log(`    peak of the tree   ${mb(run.peak).padStart(7)}   (target <= 300 MB)`);
      console.log(listOf(run.peakRows));
      console.log(
        `    tree at rest       ${mb(restTotal).padStart(7)}   (target <= 200 MB; ${mb(run.restOnce)} with shared pages counted once)`,
      );
      console.log(listOf(run.rest));
      console.log(
        `    SIGTERM            exit ${run.code ?? run.signal} after ${run.stopMs.toFixed(0)} ms${stopOk ? '' : '   (expected exit 0)'}`,
      );
    }
  }
  if (RUNS > 1) {
    console.log(`  median of ${RUNS} runs`);
    for (const [index, [label]] of labels.entries()) {
      const { peak, rest, restServer, restOnce } = figures[index];
      console.log(
        `    ${label.padEnd(32)} peak ${mb(median(peak)).padStart(7)} (${peak.map(mb).join(', ')}); at rest ${mb(median(rest)).padStart(7)} (${rest.map(mb).join(', ')}), the server alone ${mb(median(restServer))}, shared pages counted once ${mb(median(restOnce))}`,
      );
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failed ? 'FAIL' : 'PASS');
process.exitCode = failed ? 1 : 0;
