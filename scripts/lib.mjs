import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const run = (command, args, options = {}) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
};

/** Installs npm packages when node_modules is missing or older than the lockfile. */
export const ensureDependencies = () => {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies...');
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
};

const BUILD_INPUTS = [
  'package-lock.json',
  'packages/core/src',
  'apps/server/src',
  'apps/server/drizzle',
  'apps/server/build.mjs',
  'apps/server/bundle-options.mjs',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/widget/src',
  'apps/widget/build.mjs',
];

const hashInputs = () => {
  const hash = createHash('sha256');
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const name of readdirSync(file).sort()) {
        if (name === 'node_modules' || name === 'dist') continue;
        if (/\.test\.tsx?$/.test(name)) continue;
        visit(path.join(file, name));
      }
      return;
    }
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return hash.digest('hex');
};

const HASH_FILE = path.join(root, '.build-hash');
const OUTPUTS = [
  'apps/server/dist/main.js',
  'apps/server/dist/extract-worker.js',
  'apps/server/dist/contacts-import-worker.js',
  'apps/server/dist/pgdata-template/PG_VERSION',
  'apps/web/dist/index.html',
  'apps/widget/dist/loader.js',
];

/** Builds server, web app and widget unless the same sources were built before. */
export const ensureBuild = ({ force = false } = {}) => {
  const hash = hashInputs();
  const built = OUTPUTS.every((output) => existsSync(path.join(root, output)));
  if (!force && built && existsSync(HASH_FILE) && readFileSync(HASH_FILE, 'utf8') === hash) {
    console.log('Build is up to date.');
    return;
  }
  console.log('Building...');
  run('node', ['apps/widget/build.mjs']);
  run('node', ['apps/server/build.mjs']);
  run('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web') });
  writeFileSync(HASH_FILE, hash);
};

/** Installs Debian's chromium for the browser tests when it is missing and we are root. */
export const ensureChromium = () => {
  if (existsSync('/usr/bin/chromium')) return true;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('Installing chromium from Debian packages...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env });
    return existsSync('/usr/bin/chromium');
  }
  console.error('Browser tests need /usr/bin/chromium: install the Debian package "chromium".');
  return false;
};
