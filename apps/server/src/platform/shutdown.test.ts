import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';

/**
 * SIGTERM to the real server process (its entry point) with an event stream open: readiness fails
 * at once while requests are still served for the drain, the stream is told to reconnect and
 * closed, and the process exits by itself within SHUTDOWN_TIMEOUT_MS.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const OWNER = 'admin@demo.switchboard.local';
const TIMEOUT_MS = 6_000;
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

const startServer = async (port: number) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'switchboard-stop-')),
      LOG_LEVEL: 'warn',
      DIRECT_LOGIN_ALLOWLIST: OWNER,
      SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
      SHUTDOWN_DRAIN_MS: '1500',
    },
    stdio: 'ignore',
  });
  running.push(child);
  for (let i = 0; i < 600; i += 1) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (ready?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
};

describe('SIGTERM', () => {
  it('fails readiness at once, drains, tells event streams to reconnect, and exits within the timeout', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await startServer(port);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    const login = await fetch(`${base}/api/direct-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0] as string;
    const call = async (method: string, url: string, subaccountId?: string, body?: object) =>
      fetch(`${base}${url}`, {
        method,
        headers: {
          cookie,
          ...(subaccountId ? { 'x-subaccount-id': subaccountId } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const accounts = (await (await call('GET', '/api/accounts')).json()) as {
      accounts: { subaccounts: { id: string }[] }[];
    };
    const subaccountId = accounts.accounts[0]?.subaccounts[0]?.id as string;
    const agent = (await (await call('POST', '/api/agents', subaccountId, { name: 'Stop test' })).json()) as {
      id: string;
    };
    const created = await call('POST', '/api/connections', subaccountId, {
      subaccountId,
      buildId: agent.id,
      type: 'website-widget',
    });
    const connection = (await created.json()) as { connectionId: string };
    const stream = await call('GET', `/api/connections/${connection.connectionId}/conversations/events`, subaccountId);
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const received = (async () => {
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
      }
    })();

    const signalledAt = Date.now();
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ready = await fetch(`${base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe('draining');
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    // Still served while the load balancer takes the process out.
    expect((await call('GET', '/api/accounts')).status).toBe(200);

    const streamText = await received;
    expect(streamText).toContain('event: reconnect');
    expect(streamText).toMatch(/retry: \d+/);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(TIMEOUT_MS + 1_000);
  }, 120_000);
});
