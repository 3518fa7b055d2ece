/** Shared parts of the widget benchmarks: the built server, a stub model, HTTP calls. Not a benchmark itself. */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ADMIN = 'admin@demo.switchboard.local';
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/**
 * One HTTP request (on a shared keep-alive agent unless `agent` is given); a connection cut
 * mid-answer or no answer within `timeoutMs` (when given) rejects.
 */
export const call = (url, { method, headers = {}, body, timeoutMs, agent: through = agent } = {}) =>
  new Promise((resolve, reject) => {
    const start = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: method ?? (payload ? 'POST' : 'GET'),
        agent: through,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text, ms: performance.now() - start }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (timeoutMs)
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    if (payload) req.write(payload);
    req.end();
  });

export const percentile = (values, p) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** An OpenAI-compatible stub model that answers after `latencyMs` (at once by default), whole or streamed word by word. */
export const startStubModel = ({
  latencyMs = 0,
  text = 'Yes, we install solar panels. Would you like a free roof assessment?',
} = {}) =>
  new Promise((resolve) => {
    const server = http.createServer(async (req, res) => {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      if (latencyMs) await sleep(latencyMs);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'stub-small' }] }));
        return;
      }
      const usage = { prompt_tokens: 40, completion_tokens: 14, total_tokens: 54 };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (delta, finish = null, extra = {}) =>
        res.write(
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
        );
      send({ role: 'assistant', content: '' });
      for (const word of text.match(/\S+\s*/g)) send({ content: word });
      send({}, 'stop', { usage });
      res.end('data: [DONE]\n\n');
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() }),
    );
  });

/** A free local port (BENCH_PORT when set). */
export const freePort = () =>
  process.env.BENCH_PORT
    ? Promise.resolve(Number(process.env.BENCH_PORT))
    : new Promise((resolve) => {
        const probe = net.createServer();
        probe.listen(0, '127.0.0.1', () => {
          const { port } = probe.address();
          probe.close(() => resolve(port));
        });
      });

/** The built server's entry point: apps/server/dist/main.js, or another build's (BENCH_SERVER_ENTRY). */
export const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY
  ? path.resolve(process.env.BENCH_SERVER_ENTRY)
  : path.join(root, 'apps/server/dist/main.js');

/** One encryption key for every server process of a benchmark run (required in production on PostgreSQL). */
const ENCRYPTION_KEY = process.env.ENCRYPTION_KEY ?? randomBytes(32).toString('hex');

/** The built server's environment in a benchmark: the demo agency, the stub model, limits out of the way; `env` last. */
export const benchServerEnv = ({ port, dataDir, stubUrl, processes = 1, env = {} }) => ({
  ...process.env,
  ...SERVER_ENV,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'true',
  NODE_ENV: 'production',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DIRECT_LOGIN_ALLOWLIST: ADMIN,
  ...(stubUrl ? { OPENAI_BASE_URL: stubUrl } : {}),
  FREE_PLAN_CREDITS: '100000000',
  WIDGET_IP_BURST_LIMIT: '10000000',
  // Every benchmark client calls from 127.0.0.1, most with one API key.
  PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
  WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
  API_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
  API_KEY_RATE_LIMIT_PER_MINUTE: '10000000',
  STREAMS_PER_ADDRESS: '100000',
  STREAMS_PER_KEY: '100000',
  BENCH_PROCESSES: String(processes),
  ENCRYPTION_KEY,
  ...env,
});

/**
 * Waits until `base` answers GET /api/health with 200 and answers its database driver. Gives up
 * after `timeoutMs`, or as soon as `child` (the server's process, when given) exits.
 */
export const waitForServer = async (base, { child, timeoutMs = 60_000 } = {}) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    if (child && child.signalCode !== null) throw new Error(`The server was stopped by ${child.signalCode}`);
    try {
      const health = await call(`${base}/api/health`, { timeoutMs: 5000 });
      if (health.status === 200) return JSON.parse(health.text).database.driver;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw new Error('The server did not start');
    await sleep(100);
  }
};

/** package.json's start script: `NAME=value … exec node --option … scripts/start.mjs`. */
const START_WORDS = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start.split(' ');

/**
 * The V8 options a server runs with: those of `npm start` (package.json's start script; the
 * Dockerfile gives the same), a young generation of at most 8 MB a semi-space where V8's default
 * is 16 MB (docs/performance.md, "V8's young generation"). BENCH_NODE_ARGS replaces them for a
 * comparison ("" runs V8's defaults).
 */
export const SERVER_NODE_ARGS =
  process.env.BENCH_NODE_ARGS === undefined
    ? START_WORDS.filter((word) => word.startsWith('--'))
    : process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean);

/**
 * The environment `npm start` gives the server process (glibc's `MALLOC_ARENA_MAX` and
 * `MALLOC_TRIM_THRESHOLD_`, read when the process starts: docs/performance.md, "Memory"). A variable set for the benchmark wins
 * (`MALLOC_ARENA_MAX=8` compares with glibc's default on two cores).
 */
export const SERVER_ENV = Object.fromEntries(
  START_WORDS.filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word))
    .map((word) => word.split('='))
    .filter(([name]) => process.env[name] === undefined),
);

/** Starts the built server (apps/server/dist) with the demo agency and waits until it answers. */
export const startBenchServer = async ({ port, dataDir, stubUrl, env = {}, processes = 1, nodeArgs = [] }) => {
  const entry = processes > 1 ? path.join(root, 'scripts/bench/widget-cluster.js') : SERVER_ENTRY;
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...SERVER_NODE_ARGS, ...nodeArgs, entry], {
    env: benchServerEnv({ port, dataDir, stubUrl, processes, env }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let driver = 'unknown';
  try {
    driver = await waitForServer(base, { child });
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  // Keep-alive connections stay with the process that took them: measure once every process listens.
  for (let i = 0; processes > 1 && !existsSync(path.join(dataDir, 'cluster.ready')); i += 1) {
    if (i > 600) throw new Error('Not every server process started');
    await sleep(100);
  }
  // stop() answers once the process has exited (it drains and flushes first).
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    base,
    driver,
    pid: child.pid,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
};

/**
 * Signs in as the demo admin and, with `stub`, points the first agent (Sunrise Solar's) at the stub
 * model through an OpenAI key. Answers the session cookie, the agent and its sub-account.
 */
export const signInWithStubAgent = async (base, { stub = true } = {}) => {
  const login = await call(`${base}/api/direct-login`, { body: { email: ADMIN } });
  const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
  const agents = JSON.parse((await call(`${base}/api/agents`, { method: 'GET', headers: { cookie } })).text).agents;
  const target = agents[0];
  const sub = target.subaccountId;
  if (stub) {
    const saved = await call(`${base}/api/connect/${sub}/providers/openai`, {
      method: 'PUT',
      headers: { cookie },
      body: { apiKey: 'sk-bench-key' },
    });
    if (saved.status !== 200) throw new Error(`Saving the stub key failed: ${saved.text}`);
    await call(`${base}/api/agents/${target.id}`, {
      method: 'PATCH',
      headers: { cookie },
      body: { provider: 'openai', model: 'stub-small' },
    });
  }
  return { cookie, target, sub };
};

/** Signs in as the demo admin, points the Sunrise Solar agent at the stub, creates and deploys a widget. */
export const setupWidget = async (base, settings = {}, { stub = true } = {}) => {
  const { cookie, target, sub } = await signInWithStubAgent(base, { stub });
  const created = await call(`${base}/api/connections`, {
    headers: { cookie },
    body: { subaccountId: sub, buildId: target.id, type: 'website-widget' },
  });
  if (created.status !== 201) throw new Error(`Creating the widget failed: ${created.text}`);
  const connection = JSON.parse(created.text);
  if (Object.keys(settings).length) {
    await call(`${base}/api/connections/${connection.connectionId}`, {
      method: 'PUT',
      headers: { cookie },
      body: { settings },
    });
    await call(`${base}/api/connections/${connection.connectionId}/deploy`, { method: 'POST', headers: { cookie } });
  }
  return {
    widgetId: connection.widgetId,
    connectionId: connection.connectionId,
    cookie,
    agentId: target.id,
    subaccountId: sub,
  };
};

const PG_BIN = '/usr/lib/postgresql/15/bin';
/** A throwaway PostgreSQL cluster (run as the postgres user) when the machine has PostgreSQL 15, else null. */
export const startPostgres = async (port) => {
  if (!existsSync(`${PG_BIN}/initdb`) || process.env.BENCH_DB === 'pglite') return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-pg-'));
  spawnSync('chown', ['postgres', dir]);
  const asPostgres = (args) => spawnSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' });
  if (asPostgres([`${PG_BIN}/initdb`, '-D', dir, '-U', 'postgres', '--auth=trust']).status !== 0) return null;
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c shared_buffers=256MB`;
  if (asPostgres([`${PG_BIN}/pg_ctl`, '-D', dir, '-o', options, '-w', 'start']).status !== 0) return null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      asPostgres([`${PG_BIN}/pg_ctl`, '-D', dir, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** A throwaway Redis when the machine has redis-server, else null. */
export const startRedis = async (port) => {
  if (!existsSync('/usr/bin/redis-server') || process.env.BENCH_REDIS === 'off') return null;
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await sleep(300);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
};
