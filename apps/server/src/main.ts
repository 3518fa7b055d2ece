import { buildApp } from './app';
import { startEmbeddedUpkeep } from './db/embedded-upkeep';
import { ensureDemoAgents } from './features/agents/seed';
import { flushMetering } from './features/llm/credits';
import { loadEnv } from './platform/env';
import { setHeapGrowth, startIdleCollector } from './platform/idle-gc';
import { startJobWorkers } from './platform/jobs';
import { closeDeps, createDeps } from './platform/runtime';
import { shutdownGracefully } from './platform/shutdown';
import { startupErrorMessage } from './platform/startup-errors';
import { DEMO_AGENCY, seedDemoAgencyOnce } from './seed';

const env = (() => {
  try {
    return loadEnv();
  } catch (error) {
    // A wrong setting stops the start with its message (which names the variable), not a stack trace.
    console.error((error as Error).message);
    process.exit(1);
  }
})();
setHeapGrowth(env.HEAP_GROWTH_PERCENT);
/** Stops the start with a clear message for what a person can fix; anything else is thrown. */
const failStart = (error: unknown): never => {
  const message = startupErrorMessage(error, env);
  if (!message) throw error;
  console.error(message);
  process.exit(1);
};

const deps = await createDeps(env).catch(failStart);
const { app } = await buildApp(deps);

if (env.SEED_DEMO) {
  const seeded = await seedDemoAgencyOnce(deps.db);
  if (seeded) {
    const people = [{ ...DEMO_AGENCY.owner, role: 'admin' }, ...(DEMO_AGENCY.users ?? [])];
    deps.log.info(
      [
        `Seeded the demo agency "${DEMO_AGENCY.accountName}" with sub-accounts ${DEMO_AGENCY.subaccounts.join(' and ')}.`,
        'Sign in as any of these users: open the app, press Sign in, enter the address, then open the link',
        `printed below (or the mailbox at ${deps.publicUrl}/dev/mailbox):`,
        ...people.map((person) => `  ${person.role.padEnd(6)} ${person.email}`),
      ].join('\n'),
    );
  }
  await ensureDemoAgents(deps.db, DEMO_AGENCY.owner.email);
}

// The embedded database has no autovacuum of its own (PostgreSQL's server does it for DATABASE_URL).
const upkeep = deps.database.driver === 'pglite' ? await startEmbeddedUpkeep(deps.db, deps.log) : null;
await app.listen({ port: env.PORT, host: env.HOST }).catch(async (error) => {
  await closeDeps(deps);
  failStart(error);
});
const stopJobWorkers = env.JOB_WORKERS ? startJobWorkers(deps) : async () => {};
const idleCollector = startIdleCollector();
deps.log.info(`Switchboard is serving on ${deps.publicUrl} (database: ${deps.database.driver})`);

const shutdown = async (signal: string) => {
  deps.log.info(`${signal} received: not ready, draining for ${env.SHUTDOWN_DRAIN_MS} ms, then stopping`);
  // A second signal (Ctrl+C twice) stops at once.
  process.once(signal, () => process.exit(1));
  idleCollector.stop();
  upkeep?.stop();
  await shutdownGracefully({
    app,
    log: deps.log,
    timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    drainMs: env.SHUTDOWN_DRAIN_MS,
    stopJobs: (graceMs) => stopJobWorkers(graceMs),
    flushAndClose: async () => {
      await flushMetering();
      await closeDeps(deps);
    },
  });
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
