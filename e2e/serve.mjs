#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starts the built server for the browser journeys with a fresh database of its own. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-')),
  DIRECT_LOGIN_ALLOWLIST: '',
  // The operator journey's operator (e2e/operator.spec.ts).
  OPERATOR_EMAILS: 'viewer@demo.switchboard.local',
  SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
  // Every journey signs in from 127.0.0.1.
  SIGNIN_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
  PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
  CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
  PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
  WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
  API_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
  API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  NODE_ENV: 'development',
  // The journeys' own local servers (the demos journey's site, the evaluation journey's model stub)
  // listen on 127.0.0.1; user-given URLs may reach nothing else that is private.
  PRIVATE_URL_ALLOWLIST: process.env.PRIVATE_URL_ALLOWLIST || '127.0.0.1',
  // Servers side by side on one Redis (npm test's journey groups) keep their keys and channels apart.
  REDIS_PREFIX: `sbe2e:${randomBytes(4).toString('hex')}:`,
  // The agency's Stripe in the resale journey: a stand-in on the port 1000 above the server's
  // (e2e/resale.spec.ts starts it). The platform's own billing stays on the sandbox (no key).
  STRIPE_API_BASE: `http://127.0.0.1:${Number(process.env.PORT ?? 3199) + 1000}`,
  // Twilio's REST API and Meta's Graph API: stand-ins the messaging journeys start on the ports
  // 1001 and 1002 above the server's (e2e/instagram-setup.spec.ts, e2e/campaigns-inbox.spec.ts). Without them nothing listens
  // there, and a journey on the sandbox never calls them.
  TWILIO_API_URL: `http://127.0.0.1:${Number(process.env.PORT ?? 3199) + 1001}`,
  META_GRAPH_URL: `http://127.0.0.1:${Number(process.env.PORT ?? 3199) + 1002}/v21.0`,
  // "Connect with Meta" with the platform's own Meta app (the stand-in's app secret).
  META_APP_ID: '1234567890',
  META_APP_SECRET: 'c'.repeat(32),
};
let dropDatabase = async () => {};
if (env.DATABASE_URL) {
  // A database of its own, so the seeded demo agency and the journeys start from nothing.
  const { default: pg } = await import('pg');
  const name = `sbe2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const base = env.DATABASE_URL;
  const url = new URL(base);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}
const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// Started by a journeys' worker (e2e/fixtures.ts): its end, however it came, stops the server.
process.on('disconnect', () => child.kill('SIGTERM'));
child.on('exit', (code) => {
  dropDatabase()
    .catch(() => undefined)
    .finally(() => process.exit(code ?? 0));
});
