/**
 * The postMessage protocol between the widget's iframe and the page that embeds it.
 * Frame to page: ready, opened, closed, resized {width, height}, bubble-show, bubble-hide, unread {count},
 * message {role, content} (every message shown in the chat).
 * Page to frame: open, close, identify {user, hmac}, context {context}. A page may send open, close
 * and toggle to its own window (`window.postMessage({ source: 'switchboard-host', type: 'open' }, '*')`):
 * the loader passes them on; or call `Switchboard.open()` and the rest of the host API.
 * Storage: the visitor's data is kept in the host page's storage (a cross-site frame's storage is
 * often blocked): the loader answers `ready` with `storage {data}`, and the frame sends `store {key, value}`.
 */
export const FRAME_SOURCE = 'switchboard-widget';
export const HOST_SOURCE = 'switchboard-host';

export type FrameEvent =
  | {
      source: typeof FRAME_SOURCE;
      widgetId: string;
      type: 'ready' | 'opened' | 'closed' | 'bubble-show' | 'bubble-hide';
    }
  | { source: typeof FRAME_SOURCE; widgetId: string; type: 'resized'; width: number; height: number }
  | { source: typeof FRAME_SOURCE; widgetId: string; type: 'unread'; count: number }
  | { source: typeof FRAME_SOURCE; widgetId: string; type: 'store'; key: string; value: string | null }
  | { source: typeof FRAME_SOURCE; widgetId: string; type: 'message'; role: 'user' | 'agent'; content: string };

/** A signed-in user of the host site, as `Switchboard.identify(user, hmac)` gives it. */
export interface HostIdentity {
  id: string;
  name?: string;
  email?: string;
  [key: string]: unknown;
}

export type HostCommand =
  | { source: typeof HOST_SOURCE; type: 'open' | 'close'; mobile?: boolean; host?: string }
  | { source: typeof HOST_SOURCE; type: 'storage'; data: Record<string, string>; host?: string }
  | { source: typeof HOST_SOURCE; type: 'identify'; user: HostIdentity; hmac: string; host?: string }
  | { source: typeof HOST_SOURCE; type: 'context'; context: Record<string, unknown>; host?: string };
