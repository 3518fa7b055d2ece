import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * V8's heap options are read when a process starts, never later (a server cannot set them for
 * itself), so every command that starts a server names them: `npm start`, the Dockerfile, and the
 * commands the README and docs/operations.md give for running several processes. The benchmarks
 * read them from package.json.
 */
describe("the server's V8 options", () => {
  const start: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const options = start.split(' ').filter((word) => word.startsWith('--'));

  it('are given by npm start', () => {
    expect(options).toContain('--max-semi-space-size=8');
  });

  it('are the same in the Dockerfile', () => {
    const cmd = readFileSync(path.join(root, 'Dockerfile'), 'utf8').match(/^CMD \[(.*main\.js.*)\]$/m)?.[1] ?? '';
    for (const option of options) expect(cmd).toContain(JSON.stringify(option));
  });

  it.each(['README.md', 'docs/operations.md'])('are in every server command of the code blocks of %s', (file) => {
    const blocks = readFileSync(path.join(root, file), 'utf8').match(/^```[^\n]*\n[\s\S]*?^```$/gm) ?? [];
    const commands = blocks.flatMap((block) => block.match(/^.*node .*(main\.js|start\.mjs).*$/gm) ?? []);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) for (const option of options) expect(command).toContain(option);
  });
});
