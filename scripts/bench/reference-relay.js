/**
 * The reference relay of the chat benchmark: the least a server can do for a chat turn, in plain
 * Node (node:http in, node:http out to the model, JSON.parse and JSON.stringify), with no
 * framework, no database and no model SDK. Its CPU per turn, measured beside the server's in the
 * same run, tells how fast the machine is at that hour, so the server's figure can be read as a
 * multiple of it. Not a benchmark itself: run directly, it serves (argv: stub URL, port).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

const serve = (stubUrl, port) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const target = new URL(`${stubUrl}/chat/completions`);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const payload = JSON.stringify({
        model: 'stub-small',
        messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...body.messages],
      });
      const upstream = http.request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: 'Bearer reference' } },
        (answer) => {
          const parts = [];
          answer.on('data', (chunk) => parts.push(chunk));
          answer.on('end', () => {
            const completion = JSON.parse(Buffer.concat(parts).toString('utf8'));
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                id: 'chatcmpl-reference',
                object: 'chat.completion',
                created: Math.floor(Date.now() / 1000),
                model: body.model,
                choices: completion.choices,
                usage: completion.usage,
              }),
            );
          });
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end(payload);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => process.send?.('listening'));
};

/** Starts the relay in its own process; answers its base URL, pid and stop(). */
export const startReferenceRelay = (stubUrl, port) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self, stubUrl, String(port)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('message', () =>
      resolve({ base: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') }),
    );
  });

if (process.argv[1] === self) serve(process.argv[2], Number(process.argv[3]));
