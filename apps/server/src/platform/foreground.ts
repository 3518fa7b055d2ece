import type { ServerResponse } from 'node:http';

/**
 * Requests a person is waiting for, on this process, so that background work here (a campaign's
 * batches) lets them go first. The lifecycle counts every request (lifecycle.ts); an event stream
 * is taken out once it is one, as it stays open for minutes and waits for nothing. Process-wide on
 * purpose: the event loop and, on the embedded database, the database are the process's.
 */
const answering = new Set<ServerResponse>();
let waiters: (() => void)[] = [];

const settle = () => {
  if (answering.size > 0) return;
  const woken = waiters;
  waiters = [];
  for (const wake of woken) wake();
};

/** Counts a request until its answer finishes or its connection closes. */
export const trackForeground = (raw: ServerResponse) => {
  answering.add(raw);
  const done = () => {
    if (answering.delete(raw)) settle();
  };
  raw.once('finish', done);
  raw.once('close', done);
};

/** The request is an event stream now: nobody waits for it to end. */
export const leaveForeground = (raw: ServerResponse) => {
  if (answering.delete(raw)) settle();
};

/**
 * Answers once no request is being answered on this process, or after `maxWaitMs`: the most a
 * piece of background work gives way before it goes on anyway.
 */
export const foregroundIdle = (maxWaitMs: number): Promise<void> => {
  if (answering.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      waiters = waiters.filter((waiter) => waiter !== wake);
      resolve();
    }, maxWaitMs);
    waiters.push(wake);
  });
};
