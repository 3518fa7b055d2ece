import { build } from 'esbuild';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The loader on a page (jsdom): the launcher is drawn by the script's own task, and what needs
 * the page's storage (a chat left open before a reload) follows in a task of its own.
 */
const WIDGET_ID = 'wgt_loadertest';
const ORIGIN = 'https://switchboard.test';
let loaderCode = '';

beforeAll(async () => {
  const result = await build({
    entryPoints: [new URL('./loader.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  loaderCode = result.outputFiles[0]?.text ?? '';
});

const config = {
  o: ORIGIN,
  k: 'widget',
  c: '#2563eb',
  p: 'bottom-right',
  z: 56,
  l: '',
  g: '',
  b: '',
  d: 0,
  w: 400,
  h: 600,
  t: 'Solar help',
  v: '1',
};

/** A client's page (jsdom), with what its storage holds. */
const pageWith = (stored: Record<string, string> = {}) => {
  const { window } = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    url: 'https://client.test/',
    runScripts: 'outside-only',
  });
  for (const [key, value] of Object.entries(stored)) window.localStorage.setItem(key, value);
  return window;
};

/** Runs the loader on the page as the script a site includes, and returns the launcher it drew. */
const runLoader = (window: ReturnType<typeof pageWith>) => {
  (window as unknown as { __sbw: Record<string, unknown> }).__sbw = { [WIDGET_ID]: config };
  const script = window.document.createElement('script');
  script.src = `${ORIGIN}/widget/${WIDGET_ID}/widget.js`;
  Object.defineProperty(window.document, 'currentScript', { get: () => script });
  window.eval(loaderCode);
  const host = [...window.document.body.children].find((node) => node.shadowRoot);
  return { host, launcher: host?.shadowRoot?.querySelector('button.l') ?? null };
};
const nextTask = (window: ReturnType<typeof pageWith>) => new Promise((resolve) => window.setTimeout(resolve, 0));

describe('the loader', () => {
  it('draws the launcher before it reads the page storage', async () => {
    const window = pageWith();
    const reads = vi.spyOn(window.Storage.prototype, 'getItem');
    const { launcher } = runLoader(window);
    expect(launcher?.getAttribute('aria-label')).toBe('Open chat: Solar help');
    expect(reads).not.toHaveBeenCalled();
    await nextTask(window);
    expect(reads).toHaveBeenCalledWith(`sbw:${WIDGET_ID}:open`);
  });

  it('opens the chat again when it was left open, one task later', async () => {
    const window = pageWith({ [`sbw:${WIDGET_ID}:open`]: '1' });
    const { host, launcher } = runLoader(window);
    expect(launcher?.getAttribute('aria-expanded')).toBe('false');
    await nextTask(window);
    expect(launcher?.getAttribute('aria-expanded')).toBe('true');
    expect(host?.shadowRoot?.querySelector('iframe')?.src).toContain(`/widget/${WIDGET_ID}?mode=loader`);
  });

  it("keeps the page's own command given before the storage is read", async () => {
    const window = pageWith({ [`sbw:${WIDGET_ID}:open`]: '1' });
    const { launcher } = runLoader(window);
    (window as unknown as { Switchboard: { close: () => void } }).Switchboard.close();
    await nextTask(window);
    expect(launcher?.getAttribute('aria-expanded')).toBe('false');
    expect(window.localStorage.getItem(`sbw:${WIDGET_ID}:open`)).toBe('0');
  });
});
