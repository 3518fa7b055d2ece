import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDataDirFromTemplate } from './client';

/** A new embedded data folder is a copy of the build's empty one, whole or re-copied. */
describe('a data folder from the template', () => {
  const template = mkdtempSync(path.join(os.tmpdir(), 'switchboard-template-'));
  mkdirSync(path.join(template, 'base', '1'), { recursive: true });
  writeFileSync(path.join(template, 'base', '1', 'table'), 'pages');
  writeFileSync(path.join(template, 'postgresql.conf'), 'conf');
  writeFileSync(path.join(template, 'PG_VERSION'), '17');
  writeFileSync(path.join(template, 'PGLITE_VERSION'), '0.5.16');

  it('copies every file, without the build stamp', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-data-'));
    await createDataDirFromTemplate(template, dataDir);
    expect(readFileSync(path.join(dataDir, 'base', '1', 'table'), 'utf8')).toBe('pages');
    expect(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17');
    expect(existsSync(path.join(dataDir, 'PGLITE_VERSION'))).toBe(false);
  });

  it('copies again over a copy cut short (files present, PG_VERSION not yet)', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-data-'));
    mkdirSync(path.join(dataDir, 'base', '1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'base', '1', 'table'), 'pa');
    writeFileSync(path.join(dataDir, 'switchboard.lock'), '123');
    await createDataDirFromTemplate(template, dataDir);
    expect(readFileSync(path.join(dataDir, 'base', '1', 'table'), 'utf8')).toBe('pages');
    expect(readFileSync(path.join(dataDir, 'switchboard.lock'), 'utf8')).toBe('123');
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });
});
