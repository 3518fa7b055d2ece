/**
 * Undo steps for what a benchmark starts (processes, databases, keys), run last-registered first
 * when the run ends, fails, or is interrupted (Ctrl+C, SIGTERM, an uncaught error). Not a
 * benchmark itself.
 */
const steps = [];
let running = null;

const withTimeout = (promise, ms, label) =>
  Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${label} took over ${ms / 1000} s`)), ms).unref()),
  ]);

/**
 * Registers `undo` (may be async). `now`, when given, is a synchronous last resort run at process
 * exit for steps that never ran (e.g. SIGKILL to a child).
 */
export const onCleanup = (label, undo, now) => {
  steps.push({ label, undo, now });
};

/** Runs every registered step once, newest first; a failing step is reported and the rest still run. */
export const cleanUp = () => {
  running ??= (async () => {
    while (steps.length) {
      const step = steps.pop();
      try {
        await withTimeout(Promise.resolve().then(step.undo), 30_000, step.label);
      } catch (error) {
        console.error(`Cleaning up (${step.label}) failed: ${error.message}`);
        step.now?.();
      }
    }
  })();
  return running;
};

/** Cleans up before the process ends on a signal or an uncaught error. */
export const cleanUpOnExit = () => {
  const stop = (why, code) => async (error) => {
    if (running) return;
    if (error instanceof Error) console.error(error);
    console.error(`\n${why}: stopping everything this benchmark started...`);
    await cleanUp();
    process.exit(code);
  };
  process.on('SIGINT', stop('Interrupted', 130));
  process.on('SIGTERM', stop('Terminated', 143));
  process.on('SIGHUP', stop('Hung up', 129));
  process.on('uncaughtException', stop('Uncaught error', 1));
  process.on('unhandledRejection', stop('Unhandled rejection', 1));
  process.on('exit', () => {
    for (const step of steps) step.now?.();
  });
};
