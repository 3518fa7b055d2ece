import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { localised, MINIMIZED_SIZES, widgetStrings } from '@switchboard/core';
import type { Env } from '../../platform/env';
import type { LiveWidget } from './live-config';

/** The built widget files (apps/widget/dist): the loader and the chat app of the iframe. */
const widgetDist = (env: Env): string => {
  if (env.WIDGET_DIST) return env.WIDGET_DIST;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 7; i += 1) {
    const candidate = path.join(dir, 'apps', 'widget', 'dist');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return path.join(process.cwd(), 'apps', 'widget', 'dist');
};

interface Built {
  loader: string;
  app: string;
  appGzip: Buffer;
  appHash: string;
}
let built: Built | null = null;

const load = (env: Env): Built => {
  if (built) return built;
  const dist = widgetDist(env);
  const read = (name: string) => (existsSync(path.join(dist, name)) ? readFileSync(path.join(dist, name), 'utf8') : '');
  const app = read('app.js');
  built = {
    loader: read('loader.js'),
    app,
    appGzip: gzipSync(app, { level: 9 }),
    appHash: createHash('sha256').update(app).digest('hex').slice(0, 12),
  };
  return built;
};

/** JSON that is safe inside a <script> element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** What the loader needs to draw the launcher and bubble at once, before the chat app loads. */
export const launcherConfig = (env: Env, widget: LiveWidget, origin: string) => {
  const s = widget.settings;
  const strings = widgetStrings(s.language);
  return {
    o: origin,
    k: widget.type === 'website-block' ? 'block' : 'widget',
    c: s.themeColor,
    p: s.placement,
    z: MINIMIZED_SIZES[s.minimizedSize] ?? s.minimizedSizePixels,
    l: s.useLogoForMinimizedWidget && s.logoUrl ? s.logoUrl : '',
    // The logo's crop and scale from the logo dialog, placed as the designer's preview places it.
    g: `left:${Number(s.logoCropPosition.x)}%;top:${Number(s.logoCropPosition.y)}%;transform:translate(-50%,-50%) scale(${Number(s.logoScale)})`,
    b: s.chatBubble.enabled ? localised(s.chatBubble.message, 'bubbleMessage', s.language) : '',
    d: s.chatBubble.delaySeconds,
    w: s.width,
    h: s.height,
    t: localised(s.widgetTitle, 'widgetTitle', s.language) || strings.widgetTitle,
    v: `${widget.version}-${load(env).appHash}`,
  };
};

/** The script a site includes: its launcher configuration followed by the loader. */
export const loaderScript = (env: Env, widget: LiveWidget, origin: string): string => {
  const { loader } = load(env);
  return `(window.__sbw=window.__sbw||{})[${scriptJson(widget.widgetId)}]=${scriptJson(launcherConfig(env, widget, origin))};\n${loader}`;
};

/** The iframe page: the public settings inline, then the chat app. */
export const framePage = (env: Env, widget: LiveWidget, mode: 'loader' | 'inline'): string => {
  const { appHash } = load(env);
  const { dailyLimit: _limit, allowedDomains: _domains, ...publicSettings } = widget.settings;
  const config = {
    widgetId: widget.widgetId,
    type: widget.type,
    mode,
    settings: publicSettings,
    version: widget.version,
  };
  const lang = widgetStrings(widget.settings.language) ? widget.settings.language : 'en';
  const title = localised(widget.settings.widgetTitle, 'widgetTitle', widget.settings.language);
  const escapedTitle = title.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html><html lang="${lang}"${lang === 'ar' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover"><title>${escapedTitle}</title><script>window.__SBW__=${scriptJson(config)}</script><script src="/widget/app.js?v=${appHash}" defer></script></head><body></body></html>`;
};

/** The chat app bundle, plain and gzipped (it is versioned by its hash, so it can be cached for good). */
export const appBundle = (env: Env) => {
  const { app, appGzip } = load(env);
  return { app, appGzip };
};

const gzipCache = new Map<string, Buffer>();
/** A gzipped copy of a generated text, kept for the next identical request. */
export const gzipCached = (text: string): Buffer => {
  const key = createHash('sha1').update(text).digest('hex');
  let hit = gzipCache.get(key);
  if (!hit) {
    hit = gzipSync(text, { level: 9 });
    if (gzipCache.size > 500) gzipCache.clear();
    gzipCache.set(key, hit);
  }
  return hit;
};
