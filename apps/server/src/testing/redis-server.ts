import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Whether the machine has Redis's server, for tests that start their own. */
export const hasRedisServer = existsSync('/usr/bin/redis-server');

/** A throwaway Redis on `port` (nothing kept on disk), resolved once it accepts connections. */
export const startRedisServer = (port: number) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(child);
    });
    child.on('error', reject);
  });
