import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prettyLogger } from './runtime';

describe('readable logs', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('are formatted and written in this thread, one line per entry, as each is logged', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pretty-log-'));
    dirs.push(dir);
    const file = path.join(dir, 'log.txt');
    const log = await prettyLogger({ LOG_LEVEL: 'info' }, file);
    log.info({ statusCode: 200 }, 'GET /api/health 200 1.2 ms');
    log.debug('below the level');
    // A transport formats in a worker thread and writes later; here the line is in the file at once.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/health 200 1\.2 ms \{"statusCode":200\}$/);
  });
});
