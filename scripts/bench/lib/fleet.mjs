/**
 * App processes of the built server, each on its own port with its own data folder (as on its own
 * machine), that a benchmark can kill (SIGKILL), stop (SIGTERM) and start again. Each process's
 * output is appended to `<name>.log` in `dir`. Not a benchmark itself.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { benchServerEnv, SERVER_ENTRY, sleep, waitForServer } from '../widget-support.js';

export const createFleet = ({ ports, dir, stubUrl, env }) => {
  const slots = ports.map((port, i) => ({
    name: `app${i + 1}`,
    port,
    base: `http://127.0.0.1:${port}`,
    dataDir: path.join(dir, `app${i + 1}-data`),
    log: path.join(dir, `app${i + 1}.log`),
    child: null,
    exited: null,
    up: false,
    starting: null,
    starts: 0,
  }));
  for (const slot of slots) mkdirSync(slot.dataDir, { recursive: true });

  const launch = async (slot) => {
    const fd = openSync(slot.log, 'a');
    writeSync(fd, `\n--- start ${slot.starts + 1} at ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      env: benchServerEnv({ port: slot.port, dataDir: slot.dataDir, stubUrl, env }),
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    slot.child = child;
    slot.up = false;
    slot.starts += 1;
    slot.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ at: performance.now(), code, signal })),
    );
    await waitForServer(slot.base, { child, timeoutMs: 120_000 });
    if (slot.child === child) slot.up = true;
  };

  /** Starts the slot's process and waits until it answers; a start that fails is tried twice more. */
  const start = (slot) => {
    slot.starting = (async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await launch(slot);
        } catch (error) {
          slot.child?.kill('SIGKILL');
          if (attempt >= 3) throw new Error(`${slot.name} did not start (see ${slot.log}): ${error.message}`);
          await sleep(1000);
        }
      }
    })().finally(() => {
      slot.starting = null;
    });
    return slot.starting;
  };

  const alive = (slot) => slot.child && slot.child.exitCode === null && slot.child.signalCode === null;

  /** kill -9: the process ends at once, whatever it was doing. */
  const kill = async (slot) => {
    slot.up = false;
    if (alive(slot)) slot.child.kill('SIGKILL');
    await slot.exited;
  };

  /**
   * SIGTERM, then waits up to `limitMs` for the process to exit on its own (then SIGKILL). Answers
   * when the signal left and when it exited, or `forced` when it had to be killed.
   */
  const terminate = async (slot, limitMs) => {
    slot.up = false;
    const signalledAt = performance.now();
    slot.child.kill('SIGTERM');
    const exit = await Promise.race([slot.exited, sleep(limitMs).then(() => null)]);
    if (exit) return { signalledAt, exitedAt: exit.at, code: exit.code, forced: false };
    slot.child.kill('SIGKILL');
    const killed = await slot.exited;
    return { signalledAt, exitedAt: killed.at, code: null, forced: true };
  };

  return {
    slots,
    start,
    kill,
    terminate,
    /** Every slot's process answers (waits for starts under way, starts any that is down). */
    allUp: async () => {
      await Promise.all(slots.map((slot) => slot.starting ?? (slot.up ? null : start(slot))));
    },
    /** Stops every process: SIGTERM, SIGKILL for any still running after 5 s. */
    stop: async () => {
      const running = slots.filter(alive);
      for (const slot of running) slot.child.kill('SIGTERM');
      await Promise.race([Promise.all(running.map((slot) => slot.exited)), sleep(5000)]);
      for (const slot of slots.filter(alive)) slot.child.kill('SIGKILL');
      await Promise.all(running.map((slot) => slot.exited));
    },
    /** The synchronous last resort at exit. */
    killNow: () => {
      for (const slot of slots.filter(alive)) slot.child.kill('SIGKILL');
    },
  };
};
