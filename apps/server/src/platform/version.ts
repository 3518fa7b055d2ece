import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The product's version: the `version` of the root package.json (name "switchboard"), found by
 * walking up from this file, so the source, the built server and the Docker image agree.
 */
const readVersion = (): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i += 1) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'switchboard' && pkg.version) return pkg.version;
      } catch {}
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
};

export const APP_VERSION = readVersion();
