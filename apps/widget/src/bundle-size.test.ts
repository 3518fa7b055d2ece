import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The widget's byte budgets, gzipped as served, built exactly as build.mjs builds them: the loader a
 * site includes on every page stays within 3 KiB; the chat app, loaded when the visitor opens the
 * chat (markdown renderer included), within 20 KiB.
 */
const LOADER_BUDGET = 3 * 1024;
const APP_BUDGET = 20 * 1024;

const src = (file: string) => new URL(`./${file}`, import.meta.url).pathname;

describe('the widget bundles', () => {
  it('stay within their gzipped byte budgets, the markdown renderer in the chat app only', async () => {
    const result = await build({
      entryPoints: { loader: src('loader.ts'), app: src('app/main.ts') },
      outdir: '/widget-size',
      bundle: true,
      minify: true,
      format: 'iife',
      target: ['es2020'],
      legalComments: 'none',
      write: false,
      logLevel: 'silent',
    });
    const file = (name: string) => result.outputFiles.find((out) => out.path.endsWith(`/${name}`))?.contents;
    const loader = file('loader.js') as Uint8Array;
    const app = file('app.js') as Uint8Array;
    expect(gzipSync(loader, { level: 9 }).length).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(gzipSync(app, { level: 9 }).length).toBeLessThanOrEqual(APP_BUDGET);
    // The renderer's link attributes are in the chat app and not in the loader.
    expect(Buffer.from(app).toString()).toContain('noopener noreferrer nofollow');
    expect(Buffer.from(loader).toString()).not.toContain('noopener noreferrer nofollow');
  }, 30_000);
});
