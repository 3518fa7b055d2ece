import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/**
 * Caps on what one client holds open at once: event streams and calls that last as long as a
 * model answers (chats, `/mcp`, `/v1/chat/completions`). A route declares `...streamSlot()` in its
 * config; its request takes a slot of its client address and, with a platform API key, one of the
 * key, once the caller is known and before the body is read or any work done. Over either cap it
 * is answered 429. The slots go back when the answer's connection closes: the stream ended, the
 * call failed, or the client went away. Counted per process (a client's streams stay on the process
 * that took them); STREAMS_PER_ADDRESS and STREAMS_PER_KEY.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request holds a stream slot while its answer is open. */
    stream?: boolean;
  }
  interface FastifyInstance {
    streamSlots: StreamSlots;
  }
}

export const streamSlot = (): { stream: true } => ({ stream: true });

/** Streams wait this long before trying again; a slot comes back when any stream of the client ends. */
const RETRY_AFTER_SECONDS = 5;

export class StreamSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly caps: { perAddress: number; perKey: number }) {}

  /** Takes a slot of the address and of the key; answers how to give them back, or null when either is full. */
  take(address: string, keyId: string | null): (() => void) | null {
    const holders: [string, number][] = [[`address:${address}`, this.caps.perAddress]];
    if (keyId) holders.push([`key:${keyId}`, this.caps.perKey]);
    if (holders.some(([holder, cap]) => (this.held.get(holder) ?? 0) >= cap)) return null;
    for (const [holder] of holders) this.held.set(holder, (this.held.get(holder) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [holder] of holders) {
        const left = (this.held.get(holder) ?? 1) - 1;
        if (left > 0) this.held.set(holder, left);
        else this.held.delete(holder);
      }
    };
  }

  /** The slots an address or a key holds now. */
  inUse(holder: { address: string } | { keyId: string }): number {
    return this.held.get('address' in holder ? `address:${holder.address}` : `key:${holder.keyId}`) ?? 0;
  }
}

export const installStreamSlots = (app: FastifyInstance) => {
  const slots = new StreamSlots({ perAddress: app.deps.env.STREAMS_PER_ADDRESS, perKey: app.deps.env.STREAMS_PER_KEY });
  app.decorate('streamSlots', slots);
  // preParsing: after the tenant guard's onRequest has resolved the caller (and its key).
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!request.routeOptions.config?.stream) return payload;
    const release = slots.take(request.ip, request.caller?.apiKeyId ?? null);
    if (!release) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        'Too many streams and calls in progress. Close one or wait for it to finish, then try again.',
      );
    }
    const raw = reply.raw;
    raw.once('close', release);
    // A client gone before the listener was added closes nothing more.
    if (raw.destroyed || raw.writableFinished || request.raw.socket?.destroyed) release();
    return payload;
  });
};
