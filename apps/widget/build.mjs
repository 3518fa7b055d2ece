import { build } from 'esbuild';

/**
 * Builds the widget into apps/widget/dist: `loader.js`, the tiny script a site includes (served
 * with its configuration at /widget/{widgetId}/widget.js), and `app.js`, the chat app of the
 * iframe page (served at /widget-assets/app.js, loaded only when the visitor opens the chat or
 * the browser is idle).
 */
const src = (file) => new URL(`./src/${file}`, import.meta.url).pathname;
await build({
  entryPoints: { loader: src('loader.ts'), app: src('app/main.ts') },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'none',
  logLevel: 'warning',
});
