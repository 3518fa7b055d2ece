#!/usr/bin/env node
/**
 * Widget embed benchmark, with the system Chromium: what a client's page pays for the widget.
 *
 * A bare page and the same page with the widget's script tag (in its <head>, as the designer's
 * embed code says) are served from a local server of their own (another origin than the widget's). Figures, median of BENCH_RUNS loads each:
 * - bytes loaded by the page until its load event (the script a site loads), gzipped as sent;
 * - bytes loaded when the visitor opens the chat (iframe page and chat app), gzipped as sent;
 * - the launcher's time in place vs the bare page's load event, and in how many loads it was in
 *   place before the page's first paint (so it appeared in the page's first frame); the first
 *   paint of both pages beside it (a page's load event can come before its first paint);
 * - layout shift caused on the host page (CLS).
 * Targets: script <= 3 KiB; rest <= 60 KiB; launcher within 15 ms of the bare page's load (20 ms until
 * 2026-11-27); no shift. Read the launcher on a quiet machine: two busy cores add tens of ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { freePort, setupWidget, startBenchServer } from './widget-support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-embed-bench-'));
const server = await startBenchServer({ port: await freePort(), dataDir });
const { widgetId } = await setupWidget(server.base, {}, { stub: false }).catch((error) => {
  server.stop();
  throw error;
});

/** The client's site: a plain article page, with or without the widget's script tag. */
const PAGE = (
  withWidget,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Client</title>
<script>new PerformanceObserver(l=>{for(const e of l.getEntries())if(e.name==='first-paint')window.__paint=e.startTime}).observe({type:'paint',buffered:true});window.__shift=0;new PerformanceObserver(l=>{for(const e of l.getEntries())if(!e.hadRecentInput)window.__shift+=e.value}).observe({type:'layout-shift',buffered:true});
new MutationObserver((m,o)=>{for(const r of m)for(const n of r.addedNodes)if(n.shadowRoot&&n.shadowRoot.querySelector('button')){window.__launcher=performance.now();o.disconnect()}}).observe(document.documentElement,{childList:true,subtree:true});</script>
${withWidget ? `<script src="${server.base}/widget/${widgetId}/widget.js" async fetchpriority="high"></script>` : ''}
</head><body><main><h1>Solar panels for your home</h1>${'<p>Our installers fit panels on every kind of roof. Ask us anything about savings, financing and installation.</p>'.repeat(20)}</main></body></html>`;
const site = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(PAGE(request.url?.includes('widget')));
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

let browser = null;
try {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const load = async (withWidget, open = false) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const client = await context.newCDPSession(page);
    await client.send('Network.enable');
    await client.send('Network.setCacheDisabled', { cacheDisabled: true });
    // Bytes by URL, as sent (gzipped when the server compresses).
    const urls = new Map();
    const sizes = { script: 0, scriptHeaders: 0, restInPageSession: 0 };
    client.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
    // The response headers' bytes, so the script's own size (its gzipped body) is told apart.
    const headerBytes = new Map();
    client.on('Network.responseReceived', (event) =>
      headerBytes.set(event.requestId, event.response.encodedDataLength ?? 0),
    );
    client.on('Network.loadingFinished', (event) => {
      const url = urls.get(event.requestId) ?? '';
      if (!url.startsWith(server.base)) return;
      if (/\/widget\/[^/]+\/widget\.js/.test(url)) {
        sizes.script += event.encodedDataLength - (headerBytes.get(event.requestId) ?? 0);
        sizes.scriptHeaders += headerBytes.get(event.requestId) ?? 0;
      } else sizes.restInPageSession += event.encodedDataLength;
    });
    // The chat's frame is another origin than the page, so Chromium loads it in a process of its
    // own that the page's CDP session does not see: its bytes are counted from Playwright's
    // requests, which cover every frame (a new context starts with an empty cache).
    const restSizes = [];
    let counted = false;
    if (open)
      context.on('requestfinished', (request) => {
        if (counted || !request.url().startsWith(server.base) || /\/widget\/[^/]+\/widget\.js/.test(request.url()))
          return;
        restSizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize));
      });
    await page.goto(`${siteUrl}/${withWidget ? 'widget' : 'bare'}`, { waitUntil: 'load' });
    const loadEnd = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventStart);
    await page.waitForFunction(() => window.__paint !== undefined);
    const paint = await page.evaluate(() => window.__paint);
    const result = { loadEnd, paint, launcher: null, scriptBytes: 0, openBytes: 0, shift: 0 };
    if (withWidget) {
      await page.waitForFunction(() => window.__launcher !== undefined);
      result.launcher = await page.evaluate(() => window.__launcher);
      // Was the launcher in the page's first painted frame (in place before the first paint)?
      result.inFirstFrame = result.launcher <= paint;
      if (process.env.BENCH_DEBUG)
        console.log(
          await page.evaluate(() =>
            JSON.stringify(
              performance
                .getEntriesByType('resource')
                .map((e) => [
                  e.name.slice(-30),
                  Math.round(e.startTime),
                  Math.round(e.requestStart),
                  Math.round(e.responseStart),
                  Math.round(e.responseEnd),
                ]),
            ),
          ),
          result.launcher,
          loadEnd,
        );
      result.scriptBytes = sizes.script;
      result.scriptHeaderBytes = sizes.scriptHeaders;
      if (open) {
        await page.getByRole('button', { name: /^Open chat/ }).click();
        await page.frameLocator('iframe').getByRole('textbox').waitFor();
        await page.waitForTimeout(300);
        // The iframe page and the chat app, whether the browser fetched them when idle or on opening.
        result.openBytes = (await Promise.all(restSizes)).reduce((sum, bytes) => sum + bytes, 0);
        counted = true;
        result.openBytesInPageSession = sizes.restInPageSession;
      }
      result.shift = await page.evaluate(() => window.__shift);
    }
    await context.close();
    return result;
  };

  await load(false);
  await load(true);
  const bare = [];
  const barePaint = [];
  const widgetPaint = [];
  const launcher = [];
  const shifts = [];
  let inFirstFrame = 0;
  let scriptBytes = 0;
  let scriptHeaderBytes = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const bareRun = await load(false);
    bare.push(bareRun.loadEnd);
    barePaint.push(bareRun.paint);
    const run = await load(true);
    launcher.push(run.launcher);
    widgetPaint.push(run.paint);
    if (run.inFirstFrame) inFirstFrame += 1;
    shifts.push(run.shift);
    scriptBytes = run.scriptBytes;
    scriptHeaderBytes = run.scriptHeaderBytes;
  }
  const opened = await load(true, true);
  const bareLoad = median(bare);
  const launcherAt = median(launcher);
  const delta = launcherAt - bareLoad;
  const cls = Math.max(...shifts);
  console.log(`Widget embed, ${RUNS} runs each (median)`);
  console.log(
    `  script loaded by the page   ${kib(scriptBytes)} gzipped   (target <= 3 KiB; plus ${kib(scriptHeaderBytes)} of response headers)`,
  );
  console.log(
    `  loaded when opened          ${kib(opened.openBytes)} gzipped   (target <= 60 KiB; the page's CDP session alone, as read until 2026-11-26: ${kib(opened.openBytesInPageSession)})`,
  );
  console.log(`  bare page load event        ${bareLoad.toFixed(1)} ms`);
  console.log(
    `  launcher in place           ${launcherAt.toFixed(1)} ms  (${delta >= 0 ? '+' : ''}${delta.toFixed(1)} ms vs bare; target <= +15 ms, earlier +20 ms)`,
  );
  console.log(
    `  launcher in the first frame ${inFirstFrame} of ${RUNS} loads (in place before the page's first paint)`,
  );
  const paintDelta = launcherAt - median(barePaint);
  console.log(
    `  first paint                 bare page ${median(barePaint).toFixed(1)} ms, with the widget ${median(widgetPaint).toFixed(1)} ms (launcher ${paintDelta >= 0 ? '+' : ''}${paintDelta.toFixed(1)} ms vs the bare page's)`,
  );
  console.log(`  layout shift on the page    ${cls.toFixed(4)}   (target 0)`);
  const ok = scriptBytes <= 3072 && opened.openBytes <= 60 * 1024 && delta <= 15 && cls === 0;
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
} finally {
  await browser?.close();
  site.close();
  server.stop();
  setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 500);
}
