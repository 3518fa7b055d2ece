import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * V8's heap options and glibc's `MALLOC_ARENA_MAX` and `MALLOC_TRIM_THRESHOLD_` are read when a
 * process starts, never later (a server cannot set them for itself), so every command that starts
 * a server names them: `npm start`, the Dockerfile, and the commands the README and
 * docs/operations.md give for running several processes. The benchmarks read them from package.json.
 */
describe("the server's process options (V8's and glibc's)", () => {
  const start: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const options = start.split(' ').filter((word) => word.startsWith('--'));
  const variables = start.split(' ').filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word));

  it('are given by npm start', () => {
    expect(options).toContain('--max-semi-space-size=8');
    expect(variables).toEqual(['MALLOC_ARENA_MAX=2', 'MALLOC_TRIM_THRESHOLD_=1048576']);
  });

  it('are the same in the Dockerfile', () => {
    const cmd = readFileSync(path.join(root, 'Dockerfile'), 'utf8').match(/^CMD \[(.*main\.js.*)\]$/m)?.[1] ?? '';
    for (const option of options) expect(cmd).toContain(JSON.stringify(option));
    const env = readFileSync(path.join(root, 'Dockerfile'), 'utf8').match(/^ENV (?:.*\\\n)*.*$/m)?.[0] ?? '';
    for (const variable of variables) expect(env).toContain(variable);
  });

  it.each(['README.md', 'docs/operations.md'])('are in every server command of the code blocks of %s', (file) => {
    const blocks = readFileSync(path.join(root, file), 'utf8').match(/^```[^\n]*\n[\s\S]*?^```$/gm) ?? [];
    const commands = blocks.flatMap((block) => block.match(/^.*node .*(main\.js|start\.mjs).*$/gm) ?? []);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) for (const option of options) expect(command).toContain(option);
    // Each command's block gives the process the same environment, on the command or exported before it.
    for (const block of blocks.filter((text) => /node .*(main\.js|start\.mjs)/.test(text)))
      for (const variable of variables) expect(block).toMatch(new RegExp(`(^|\\s)(export )?${variable}\\b`));
  });
});
