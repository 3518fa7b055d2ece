/** The chat window's styles; colours come from CSS variables set from the widget's settings. */
export const STYLES = `
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:transparent;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
button{font:inherit;cursor:pointer}
.w{--bg:#0d0e12;--fg:#f3f4f6;--muted:#a1a1aa;--panel:#1a1c23;--line:#2a2d36;--agent:#23262f;display:flex;flex-direction:column;height:100%;background:var(--bg);color:var(--fg);border-radius:16px;overflow:hidden;position:relative}
.w.light{--bg:#f8fafc;--fg:#0f172a;--muted:#52525b;--panel:#ffffff;--line:#e2e8f0;--agent:#e9eef5}
.w.full{border-radius:0}
.h{display:flex;align-items:center;gap:10px;padding:12px 14px;background:var(--c);color:var(--on-c);min-height:60px}
.h h1{flex:1;margin:0;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.logo{height:36px;max-width:150px;overflow:hidden;border-radius:8px;flex:none}
.logo,.av{position:relative}
.logo img,.av img{position:absolute;height:100%;width:100%;max-width:none;object-fit:contain}
.ib{background:transparent;border:0;color:inherit;width:34px;height:34px;border-radius:8px;display:flex;align-items:center;justify-content:center}
.ib:hover,.ib:focus-visible{background:rgba(255,255,255,.18);outline:none}
.ib:focus-visible{box-shadow:0 0 0 2px currentColor}
.menu{position:absolute;top:56px;right:12px;z-index:5;background:var(--panel);color:var(--fg);border:1px solid var(--line);border-radius:10px;box-shadow:0 10px 30px rgba(0,0,0,.3);padding:4px;min-width:210px}
.menu button{display:block;width:100%;text-align:start;background:transparent;border:0;color:inherit;padding:9px 12px;border-radius:6px}
.menu button:hover,.menu button:focus-visible{background:var(--agent);outline:none}
.msgs{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px;overscroll-behavior:contain}
.row{display:flex;gap:8px;align-items:flex-end;max-width:88%}
.row.user{align-self:flex-end;flex-direction:row-reverse}
.av{width:28px;height:28px;border-radius:50%;flex:none;background:var(--c);color:var(--on-c);display:flex;align-items:center;justify-content:center;font-size:12px;font-weight:600;overflow:hidden}
.bub{padding:9px 12px;border-radius:14px;background:var(--agent);word-wrap:break-word;overflow-wrap:anywhere;min-width:0}
.row.user .bub{background:var(--c);color:var(--on-c);border-bottom-right-radius:4px}
.row.agent .bub{border-bottom-left-radius:4px}
.bub p{margin:0}.bub p+*,.bub *+p{margin-top:6px}.bub h1,.bub h2,.bub h3,.bub h4,.bub h5,.bub h6{font-size:1em;margin:6px 0 2px}
.bub table{border-collapse:collapse;display:block;overflow-x:auto;margin:4px 0;font-size:13px}.bub th,.bub td{border:1px solid var(--muted);padding:3px 6px}
.bub blockquote{margin:4px 0;padding-inline-start:8px;border-inline-start:3px solid var(--muted)}.bub hr{border:0;border-top:1px solid var(--muted)}.bub pre{white-space:pre-wrap;background:rgba(0,0,0,.2);padding:8px;border-radius:6px;margin:4px 0}
.bub code{font-family:ui-monospace,monospace;font-size:12.5px}.bub ul,.bub ol{margin:4px 0;padding-inline-start:20px}
.bub a{color:inherit;text-decoration:underline}
.who{font-size:11px;color:var(--muted);margin-bottom:2px}
.time{font-size:11px;color:var(--muted);margin-top:3px}
.typing{display:flex;align-items:center;gap:6px;color:var(--muted);font-size:13px}
.dots{display:inline-flex;gap:3px}.dots i{width:6px;height:6px;border-radius:50%;background:var(--muted);animation:b 1s infinite}
.dots i:nth-child(2){animation-delay:.15s}.dots i:nth-child(3){animation-delay:.3s}
@keyframes b{0%,80%,100%{opacity:.3}40%{opacity:1}}
.chips{display:flex;flex-wrap:wrap;gap:6px;padding:0 14px 8px}
.chip{border:1px solid var(--c);background:transparent;color:var(--fg);border-radius:999px;padding:6px 12px;font-size:13px}
.chip:hover,.chip:focus-visible{background:var(--c);color:var(--on-c);outline:none}
form{display:flex;gap:8px;padding:10px 12px;border-top:1px solid var(--line);background:var(--panel)}
textarea{flex:1;resize:none;border:1px solid var(--line);border-radius:10px;background:var(--bg);color:var(--fg);padding:9px 11px;font:inherit;max-height:120px;min-height:40px}
textarea:focus{outline:2px solid var(--c);outline-offset:0}
textarea::placeholder{color:var(--muted)}
.send{width:40px;height:40px;border:0;border-radius:10px;background:var(--c);color:var(--on-c);display:flex;align-items:center;justify-content:center;flex:none}
.send:disabled{opacity:.45;cursor:default}
.list{flex:1;overflow-y:auto;padding:8px}
.item{display:flex;align-items:center;gap:8px;border-radius:10px;padding:4px}
.item:hover{background:var(--agent)}
.item .open{flex:1;min-width:0;text-align:start;background:transparent;border:0;color:inherit;padding:8px}
.item .t{display:flex;justify-content:space-between;gap:8px;font-weight:600}
.item .p{color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:13px}
.badge{background:var(--c);color:var(--on-c);border-radius:999px;font-size:11px;padding:0 6px;margin-inline-start:6px}
.empty{text-align:center;color:var(--muted);padding:48px 16px}
.empty strong{display:block;color:var(--fg);margin-bottom:6px}
.del{color:var(--muted)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (prefers-reduced-motion:reduce){.dots i{animation:none}}
.calm .dots i{animation:none;opacity:.7}
`;
