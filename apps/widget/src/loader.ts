/**
 * The loader: the one script a site includes (kept tiny). It draws the launcher and the delayed
 * bubble at once in a shadow root (fixed position, so the page's layout never shifts), and loads
 * the chat app in an iframe only when the visitor opens it or the browser is idle.
 */
import { FRAME_SOURCE, HOST_SOURCE } from './protocol';

interface LauncherConfig {
  o: string; // server origin
  k: 'widget' | 'block';
  c: string; // theme colour
  p: string; // placement
  z: number; // launcher size
  l: string; // logo for the launcher
  g: string; // the logo's placement (crop position and scale) as CSS
  b: string; // bubble text ('' = no bubble)
  d: number; // bubble delay, seconds
  w: number;
  h: number;
  t: string; // title
  v: string; // version (cache key of the frame page)
}

const script = document.currentScript as HTMLScriptElement | null;
const src = script?.src;
const id = src ? new URL(src).pathname.split('/')[2] || '' : '';
const c = (window as unknown as { __sbw?: Record<string, LauncherConfig> }).__sbw?.[id];

// Icons are drawn by the shadow root's CSS (svg rule); the button's aria-label names them.
const CHAT_ICON =
  '<svg viewBox="0 0 24 24"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
const CLOSE_ICON = '<svg viewBox="0 0 24 24"><path d="M18 6 6 18M6 6l12 12"/></svg>';

const mount = (cfg: LauncherConfig) => {
  const prefix = `sbw:${id}:`;
  const key = `${prefix}open`;
  const mobile = () => window.innerWidth <= 1024;
  const top = cfg.p.indexOf('top') === 0;
  const left = cfg.p.indexOf('left') > 0;
  const edge = (v: number) => `${top ? 'top' : 'bottom'}:${v}px;${left ? 'left' : 'right'}:20px`;
  const frameSrc = `${cfg.o}/widget/${id}?mode=loader&v=${encodeURIComponent(cfg.v)}`;

  if (cfg.k === 'block') {
    // A website block renders inline where the script stands.
    const f = document.createElement('iframe');
    f.src = frameSrc.replace('mode=loader', 'mode=inline');
    f.title = cfg.t;
    f.style.cssText = `display:block;width:100%;max-width:${cfg.w}px;height:${cfg.h}px;border:0;border-radius:12px`;
    script?.parentNode?.insertBefore(f, script);
    return;
  }

  const logo = () => (cfg.l ? `<img alt="" style="${cfg.g || ''}" src="${encodeURI(cfg.l)}">` : CHAT_ICON);
  const host = document.createElement('div');
  host.style.cssText = 'position:fixed;z-index:2147483000;width:0;height:0;top:0;left:0';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>button{all:unset;box-sizing:border-box;cursor:pointer}svg{width:45%;height:45%;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}.l{position:fixed;${edge(20)};width:${cfg.z}px;height:${cfg.z}px;border-radius:50%;background:${cfg.c};color:#fff;display:flex;align-items:center;justify-content:center;box-shadow:0 6px 20px #0004;overflow:hidden}.l:focus-visible{outline:3px solid ${cfg.c};outline-offset:3px}.l img{position:absolute;width:100%;height:100%;object-fit:contain}.n{position:absolute;top:0;right:0;min-width:18px;height:18px;border-radius:9px;background:#dc2626;color:#fff;font:600 11px/18px sans-serif;text-align:center;display:none}.b{position:fixed;${edge(cfg.z + 32)};max-width:260px;background:#fff;color:#111;font:14px/1.4 system-ui,sans-serif;padding:12px 32px 12px 14px;border-radius:12px;box-shadow:0 6px 24px #0003;display:none;cursor:pointer}.b button{position:absolute;top:6px;right:8px;width:20px;text-align:center;color:#444;font:16px/20px sans-serif}iframe{position:fixed;border:0;border-radius:16px;box-shadow:0 12px 40px #0005;display:none}iframe.m{inset:0;width:100%;height:100%;border-radius:0}</style><div class="b" role="status"><span></span><button type="button" aria-label="Dismiss">×</button></div><button class="l" type="button" aria-label="Open chat: ${cfg.t.replace(/[<>&"]/g, '')}" aria-expanded="false">${logo()}<span class="n"></span></button>`;
  const launcher = root.querySelector('.l') as HTMLButtonElement;
  const bubble = root.querySelector('.b') as HTMLDivElement;
  const badge = root.querySelector('.n') as HTMLSpanElement;
  (bubble.firstChild as HTMLSpanElement).textContent = cfg.b;
  let frame: HTMLIFrameElement | null = null;
  let ready = false;
  let open = false;
  let dismissed = false;
  let size = { w: cfg.w, h: cfg.h };
  let overflow = '';

  // Commands wait for the frame: the last open/close, and the latest identity and context.
  const queue: Record<string, Record<string, unknown>> = {};
  const send = (m: Record<string, unknown>) => {
    if (!frame || !ready) {
      queue[m.type === 'open' || m.type === 'close' ? 'v' : (m.type as string)] = m;
      return;
    }
    frame.contentWindow?.postMessage({ source: HOST_SOURCE, mobile: mobile(), host: location.origin, ...m }, cfg.o);
  };
  const post = (type: 'open' | 'close') => send({ type });
  const ons: Record<string, ((data?: unknown) => void)[]> = {};
  const emit = (name: string, data?: unknown) => {
    for (const f of ons[name] || []) {
      try {
        f(data);
      } catch {}
    }
  };
  const place = () => {
    if (!frame) return;
    const m = mobile();
    frame.className = m ? 'm' : '';
    const vv = window.visualViewport;
    if (m) {
      // Keyboard lift: the visual viewport shrinks when an on-screen keyboard opens.
      const lift = vv ? Math.max(0, window.innerHeight - vv.height - vv.offsetTop) : 0;
      frame.style.cssText = `display:${open ? 'block' : 'none'};height:${vv ? vv.height : window.innerHeight}px;top:${vv ? vv.offsetTop : 0}px;bottom:${lift}px`;
      return;
    }
    const h = Math.min(size.h, 800, window.innerHeight - cfg.z - 52);
    frame.style.cssText = `display:${open ? 'block' : 'none'};width:${Math.min(size.w, window.innerWidth - 40)}px;height:${h}px;${edge(cfg.z + 32)}`;
  };
  const load = () => {
    if (frame) return;
    frame = document.createElement('iframe');
    frame.title = cfg.t;
    frame.src = frameSrc;
    frame.setAttribute('allow', 'clipboard-write');
    root.appendChild(frame);
    place();
  };
  const showBubble = (show: boolean) => {
    bubble.style.display = show && cfg.b && !dismissed && !open ? 'block' : 'none';
  };
  const setOpen = (next: boolean) => {
    if (open !== next) emit(next ? 'open' : 'close');
    open = next;
    launcher.innerHTML = next ? CLOSE_ICON : logo();
    launcher.appendChild(badge);
    launcher.setAttribute('aria-label', `${next ? 'Close' : 'Open'} chat: ${cfg.t}`);
    launcher.setAttribute('aria-expanded', String(next));
    if (next) badge.style.display = 'none';
    showBubble(false);
    try {
      localStorage.setItem(key, next ? '1' : '0');
    } catch {}
    // Mobile: the chat is full screen and the page behind it does not scroll.
    const body = (document.body ?? document.documentElement).style;
    if (next && mobile()) {
      overflow = body.overflow;
      body.overflow = 'hidden';
    } else if (!next) body.overflow = overflow;
    launcher.style.display = next && mobile() ? 'none' : '';
    place();
  };
  let commanded = false;
  const toggle = (next: boolean) => {
    commanded = true;
    load();
    setOpen(next);
    post(next ? 'open' : 'close');
  };

  launcher.onclick = () => toggle(!open);
  bubble.onclick = (e) => {
    if ((e.target as HTMLElement).tagName === 'BUTTON') {
      dismissed = true;
      showBubble(false);
    } else toggle(true);
  };
  window.addEventListener('message', (e) => {
    const m = e.data;
    // The page's own commands: window.postMessage({source: 'switchboard-host', type: 'open'}, '*').
    if (e.source === window && m && m.source === HOST_SOURCE && !m.host) {
      if (m.type === 'open' || m.type === 'close') toggle(m.type === 'open');
      else if (m.type === 'toggle') toggle(!open);
      return;
    }
    if (e.origin !== cfg.o || !m || m.source !== FRAME_SOURCE || m.widgetId !== id) return;
    if (m.type === 'ready') {
      // The visitor's widget data lives in this page's storage (a cross-site frame's is often blocked).
      const data: Record<string, string> = {};
      try {
        for (let i = 0; i < localStorage.length; i++) {
          const k = localStorage.key(i) || '';
          if (k.indexOf(prefix) === 0) data[k] = localStorage.getItem(k) || '';
        }
      } catch {}
      frame?.contentWindow?.postMessage({ source: HOST_SOURCE, type: 'storage', data, host: location.origin }, cfg.o);
      ready = true;
      for (const k in queue) send(queue[k] as Record<string, unknown>);
      emit('ready');
    } else if (m.type === 'message') emit('message', { role: m.role, content: m.content });
    else if (m.type === 'closed' && open) setOpen(false);
    else if (m.type === 'opened' && !open) setOpen(true);
    else if (m.type === 'store' && String(m.key).indexOf(prefix) === 0) {
      try {
        m.value === null ? localStorage.removeItem(m.key) : localStorage.setItem(m.key, m.value);
      } catch {}
    } else if (m.type === 'resized') {
      size = { w: m.width, h: m.height };
      place();
    } else if (m.type === 'bubble-show') showBubble(true);
    else if (m.type === 'bubble-hide') showBubble(false);
    else if (m.type === 'unread' && !open) {
      badge.textContent = String(m.count);
      badge.style.display = m.count > 0 ? 'block' : 'none';
    }
  });
  let timer = 0;
  const onResize = () => {
    clearTimeout(timer);
    timer = window.setTimeout(place, 200);
  };
  window.addEventListener('resize', onResize);
  window.visualViewport?.addEventListener('resize', place);
  // Placed at once, even before the page's body exists (the launcher is fixed, not in the flow).
  (document.body ?? document.documentElement).appendChild(host);
  (window as unknown as { Switchboard?: unknown }).Switchboard = {
    open: () => toggle(true),
    close: () => toggle(false),
    toggle: () => toggle(!open),
    isOpen: () => open,
    identify: (user: unknown, hmac: string) => {
      load();
      send({ type: 'identify', user, hmac });
    },
    setContext: (context: unknown) => {
      load();
      send({ type: 'context', context });
    },
    on: (name: string, f: (data?: unknown) => void) => {
      ons[name] = ons[name] || [];
      ons[name].push(f);
      if (name === 'ready' && ready) f();
    },
  };

  // The chat left open before a reload opens again, read in a task of its own: a page's first
  // read of localStorage waits on the browser (1 to 5 ms in Chromium), and the launcher is drawn
  // without waiting for it. A command the page gave meanwhile wins.
  setTimeout(() => {
    let wasOpen = false;
    try {
      wasOpen = localStorage.getItem(key) === '1';
    } catch {}
    if (wasOpen) {
      if (!commanded) toggle(true);
      return;
    }
    setTimeout(() => showBubble(true), Math.max(0, cfg.d) * 1000);
    const idle = () =>
      ((window as unknown as { requestIdleCallback?: (f: () => void) => void }).requestIdleCallback || setTimeout)(
        load,
      );
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle);
  });
};

if (c) mount(c);
