import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database's folder is used by one process at a time: PGlite is PostgreSQL inside
 * this process, and two of them on the same files would corrupt them. A lock file holds the pid
 * of the process that owns the folder; a second process stops with a message naming DATA_DIR.
 * A lock left by a process that no longer runs (killed with -9) is taken over.
 */
export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another Switchboard process (pid ${pid}). ` +
        'Stop that process, or give this one another DATA_DIR (or a DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the folder's lock; returns the function that releases it. */
export const lockDataDir = (dataDir: string): (() => void) => {
  const file = path.join(dataDir, 'switchboard.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner))
        throw new DataDirLockedError(dataDir, owner);
      unlinkSync(file);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
};
