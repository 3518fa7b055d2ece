/** HAProxy in front of app processes, for benchmarks that need a real load balancer. Not a benchmark itself. */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const HAPROXY = '/usr/sbin/haproxy';

/** Installs Debian's haproxy when it is missing and we are root (as scripts/lib.mjs does for chromium). */
export const ensureHaproxy = () => {
  if (existsSync(HAPROXY)) return true;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('Installing haproxy from Debian packages...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { stdio: 'inherit', env });
    return existsSync(HAPROXY);
  }
  console.error(`This benchmark needs ${HAPROXY}: install the Debian package "haproxy".`);
  return false;
};

/**
 * The configuration: round robin over `servers` (ports on 127.0.0.1), each checked every second
 * with GET `checkPath` (down after 2 failed checks, up after 2 good ones). A request whose
 * connection is refused is tried again on another server; one already sent is never repeated
 * (a chat message or a form post is not safe to send twice). The client address goes in
 * X-Forwarded-For.
 */
const config = ({ port, servers, checkPath, socket }) =>
  `global
  maxconn 4096
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout queue 10s
  retries 3
  option redispatch

frontend app_in
  bind 127.0.0.1:${port}
  default_backend app

backend app
  balance roundrobin
  option forwardfor
  option httpchk
  http-check send meth GET uri ${checkPath} ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect status 200
  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2
${servers.map((serverPort, i) => `  server app${i + 1} 127.0.0.1:${serverPort} check`).join('\n')}
`;

/**
 * Starts HAProxy in the foreground on `port`, its messages (servers going down and up) in
 * `dir`/haproxy.log; `stop()` ends it, `states()` reads each server's check state and open
 * connections (by name: app1, app2, ...).
 */
export const startHaproxy = async ({ port, servers, checkPath, dir }) => {
  const file = path.join(dir, 'haproxy.cfg');
  const socket = path.join(dir, 'haproxy.sock');
  writeFileSync(file, config({ port, servers, checkPath, socket }));
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refused its configuration:\n${check.stderr}${check.stdout}`);
  const log = openSync(path.join(dir, 'haproxy.log'), 'a');
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const states = () =>
    new Promise((resolve) => {
      const connection = net.createConnection(socket);
      let text = '';
      connection.on('data', (chunk) => {
        text += chunk;
      });
      connection.on('error', () => resolve({}));
      connection.on('end', () => {
        const [header = '', ...rows] = text.trim().split('\n');
        const columns = header.replace(/^# /, '').split(',');
        const status = columns.indexOf('status');
        const name = columns.indexOf('svname');
        const sessions = columns.indexOf('scur');
        resolve(
          Object.fromEntries(
            rows
              .map((row) => row.split(','))
              .filter((cells) => /^app\d+$/.test(cells[name] ?? ''))
              .map((cells) => [cells[name], { status: cells[status], sessions: Number(cells[sessions]) }]),
          ),
        );
      });
      connection.end('show stat\n');
    });
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited with code ${child.exitCode}`);
    if (Object.keys(await states()).length === servers.length) break;
    if (i > 100) throw new Error('HAProxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    states,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(socket, { force: true });
    },
    kill: () => child.kill('SIGKILL'),
  };
};
