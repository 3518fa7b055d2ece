import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEB_TOP_LEVEL_SEGMENTS } from '@switchboard/core';
import { describe, expect, it } from 'vitest';

/** The server's list of page paths (404 for the rest) covers every page the web app declares. */
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const routeFiles = [
  path.join(src, 'app', 'router.tsx'),
  ...readdirSync(path.join(src, 'features')).map((feature) => path.join(src, 'features', feature, 'routes.tsx')),
].filter((file) => {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
});

describe('web app page paths', () => {
  it('lists the first segment of every absolute page path', () => {
    const segments = new Set<string>();
    for (const file of routeFiles) {
      for (const match of readFileSync(file, 'utf8').matchAll(/path: '\/([^/':]*)/g)) segments.add(match[1] ?? '');
    }
    expect(segments.size).toBeGreaterThan(10);
    for (const segment of segments) expect(WEB_TOP_LEVEL_SEGMENTS).toContain(segment);
  });
});
