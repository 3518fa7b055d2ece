import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { foregroundIdle, leaveForeground, trackForeground } from './foreground';

const response = () => new EventEmitter() as unknown as ServerResponse;
const settledWithin = async (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('background work lets the requests being answered go first', () => {
  it('goes on at once when nothing is being answered', async () => {
    expect(await settledWithin(foregroundIdle(1_000), 20)).toBe(true);
  });

  it('waits while a request is answered and goes on once its answer finishes', async () => {
    const raw = response();
    trackForeground(raw);
    const waiting = foregroundIdle(5_000);
    expect(await settledWithin(waiting, 30)).toBe(false);
    raw.emit('finish');
    raw.emit('close');
    expect(await settledWithin(waiting, 30)).toBe(true);
  });

  it('waits no longer than it was told, so a long request never stops the work', async () => {
    const raw = response();
    trackForeground(raw);
    const started = performance.now();
    await foregroundIdle(40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    raw.emit('close');
  });

  it('does not wait for an event stream, which stays open for minutes', async () => {
    const raw = response();
    trackForeground(raw);
    leaveForeground(raw);
    expect(await settledWithin(foregroundIdle(5_000), 20)).toBe(true);
    raw.emit('close');
  });
});
