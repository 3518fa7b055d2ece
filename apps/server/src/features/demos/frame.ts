import { randomBytes } from 'node:crypto';
import { STORED_WIDGET_DEFAULTS, type TPublicDemo, type WidgetSettings } from '@switchboard/core';

/**
 * The professional template of the website presentation runs the visitor widget's own chat
 * window (apps/widget) in a frame. This page gives it the demo's look as widget settings and
 * redirects its calls: chat goes to POST /api/demo-chat with the demo id, the conversation list
 * is answered locally with an empty list, and sessions are neither restored nor kept (demo mode).
 * Replies and failures are reported to the demo page so it can update the request counter and
 * show the error toast.
 */
const bootToken = randomBytes(6).toString('hex');

const pixels = (value: number | string, fallback: number) => {
  const parsed = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};

export const widgetSettingsOf = (demo: TPublicDemo): Omit<WidgetSettings, 'dailyLimit' | 'allowedDomains'> => {
  const s = demo.settings;
  const { dailyLimit: _limit, allowedDomains: _domains, ...defaults } = STORED_WIDGET_DEFAULTS;
  const avatar = demo.avatarUrl;
  return {
    ...defaults,
    template: 'professional',
    theme: s.theme,
    themeColor: s.themeColor || defaults.themeColor,
    showFirstMessage: s.showWelcomeMessage,
    firstMessage: s.welcomeMessage,
    logoUrl: s.logoUrl || demo.logoUrl,
    logoWidth: s.logoWidth,
    widgetTitle: s.widgetTitle || demo.name,
    placement: s.platformSettings.position,
    chatBubble: s.chatBubble,
    inputPlaceholder: s.placeholder || defaults.inputPlaceholder,
    width: s.embedSettings.responsive ? 420 : pixels(s.embedSettings.width, 420),
    height: s.embedSettings.responsive ? 600 : pixels(s.embedSettings.height, 600),
    logoCropPosition: s.logoCropPosition,
    logoScale: s.logoScale,
    useLogoForAvatar: Boolean(avatar),
    avatarLogoUrl: avatar,
    avatarLogoCropPosition: s.avatarCropPosition,
    avatarLogoScale: s.avatarScale,
    suggestedResponses: s.suggestedResponses,
    aiName: s.websiteAssistantName || s.assistantName || defaults.aiName,
    language: 'en',
  };
};

/** JSON that is safe inside a <script> element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Runs before the widget app: redirects its calls to the demo endpoints (the "interceptor"). */
const interceptor = (demoId: string) => `(function(){
var demoId=${scriptJson(demoId)};
try{Object.keys(localStorage).forEach(function(k){if(k.indexOf(demoId)>=0)localStorage.removeItem(k);});}catch(e){}
try{window.EventSource=undefined;}catch(e){}
var realFetch=window.fetch.bind(window);
var json=function(body,status){return new Response(JSON.stringify(body),{status:status,headers:{'content-type':'application/json'}});};
var tell=function(msg){if(window.parent!==window){msg.source='switchboard-demo';msg.demoId=demoId;window.parent.postMessage(msg,'*');}};
window.fetch=function(input,init){
var url=typeof input==='string'?input:(input&&input.url)||'';
var path=url.indexOf(location.origin)===0?url.slice(location.origin.length):url;
if(/^\\/api\\/widget\\/[^/]+\\/chat(\\?|$)/.test(path)){
var body={};try{body=JSON.parse((init&&init.body)||'{}');}catch(e){}
return realFetch('/api/demo-chat?demoId='+encodeURIComponent(demoId),{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({demoId:demoId,message:body.message,threadId:body.threadId||body.widgetConversationThreadId||null,history:body.history||[]})})
.then(function(res){return res.json().then(function(data){
if(!res.ok){var m=data&&data.error&&data.error.message;tell({type:'error',status:res.status,message:m||''});return json({error:{message:m||'Failed to get response from AI assistant.'}},res.status);}
tell({type:'reply',requestCount:data.requestCount});
return json({message:data.message,threadId:data.threadId,widgetConversationThreadId:data.threadId,humanHandled:data.humanHandled});});})
.catch(function(){tell({type:'error',status:500,message:'Failed to connect to demo service'});return json({error:{message:'Failed to connect to demo service'}},500);});}
if(/^\\/api\\/widget\\/[^/]+\\/conversations/.test(path))return Promise.resolve(json({conversations:[]},200));
if(/^\\/api\\/widget\\//.test(path))return Promise.resolve(json({error:{message:'Not available in demos'}},404));
return realFetch(input,init);};
})();`;

/** The frame page of the professional widget for one demo. */
export const demoFramePage = (demo: TPublicDemo): string => {
  const config = {
    widgetId: demo.demoId,
    type: 'website-widget',
    mode: 'loader',
    settings: widgetSettingsOf(demo),
    version: 1,
  };
  const title = (demo.settings.widgetTitle || demo.name).replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><script>${interceptor(demo.demoId)}</script><script>window.__SBW__=${scriptJson(config)}</script><script src="/widget-assets/app.js?v=${bootToken}" defer></script></head><body></body></html>`;
};
