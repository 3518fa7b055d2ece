import { readFileSync } from 'node:fs';

/**
 * How the server's code is bundled for Node, shared by the build (build.mjs: dist/main.js and the
 * task workers' bundles) and by the task workers of a server running from its sources
 * (src/platform/worker-task.dev.mjs). The server's dependencies stay imports of node_modules,
 * except @switchboard/core, which is bundled in.
 */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@switchboard/'));

export const serverBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
};
