#!/usr/bin/env node
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
ensureBuild();
const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
