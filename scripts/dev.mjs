#!/usr/bin/env node
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, root } from './lib.mjs';

/** The API with reload on change (tsx watch) and the Vite dev server on :5173 proxying to it. */
ensureDependencies();
const port = process.env.PORT ?? '3000';
const children = [
  spawn('npx', ['tsx', 'watch', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: port },
  }),
  spawn('npx', ['vite'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, API_PORT: port },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
