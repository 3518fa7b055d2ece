import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');

it('imports nothing but Node and its own files, so it runs outside the workspace', () => {
  for (const file of readdirSync(path.join(root, 'src')).filter((name) => name.endsWith('.mjs'))) {
    const source = readFileSync(path.join(root, 'src', file), 'utf8');
    for (const [, from] of source.matchAll(/from '([^']+)'/g)) expect(from).toMatch(/^(node:|\.\/)/);
  }
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  expect(manifest.name).toMatch(/^@[a-z0-9-]+\/cli$/);
  expect(manifest.private).toBeUndefined();
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.bin).toEqual({ switchboard: 'bin/switchboard.mjs' });
});

it('packs into a tarball that installs globally and runs as `switchboard`', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'sb-pack-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8' }),
  ) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]?.files.map((file) => file.path).sort();
  expect(files).toEqual(['bin/switchboard.mjs', 'package.json', 'README.md', 'src/main.mjs', 'src/report.mjs'].sort());
  const prefix = path.join(out, 'global');
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--offline',
      '--no-audit',
      '--no-fund',
      path.join(out, packed[0]?.filename ?? ''),
    ],
    { encoding: 'utf8' },
  );
  const help = spawnSync(path.join(prefix, 'bin', 'switchboard'), ['--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('Usage: switchboard eval run');
}, 60_000);
