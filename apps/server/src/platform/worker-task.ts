import { parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * Work on an uploaded file (reading a document, parsing a CSV of thousands of rows) runs in a
 * worker thread of its own, never on the event loop that answers requests. Each task gets a new
 * thread with a time limit and a memory limit (its JavaScript heap), and the thread is terminated
 * as soon as it answers, fails or runs out of time: nothing a task allocated outlives it.
 *
 * A task's worker is a module that calls `serveTask`; the caller names it with `taskEntry` and runs
 * it with `runTask`.
 */

/** A task's refusal of its input: the message for the person who sent it, and the field it concerns. */
export class TaskRefusal extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'TaskRefusal';
  }
}

/** The task went past its time limit or its memory limit. */
export class TaskLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory') {
    super(`the task went past its ${limit} limit`);
    this.name = 'TaskLimitError';
  }
}

export interface TaskLimits {
  timeoutMs: number;
  /** Megabytes of JavaScript heap. */
  memoryMb: number;
}

type Answer = { result: unknown } | { refused: { message: string; field?: string } } | { error: string };

/**
 * The worker module `name` beside the caller: its TypeScript source when the server runs from its
 * sources (tests, npm run dev), the bundle beside main.js when it is built (apps/server/build.mjs
 * bundles each task's worker under its own name).
 */
export const taskEntry = (callerUrl: string, name: string): URL =>
  new URL(`./${name}.${callerUrl.endsWith('.ts') ? 'ts' : 'js'}`, callerUrl);

/**
 * A TypeScript worker module's bundle, made on first use (worker-task.dev.mjs). Imported by a
 * computed name, so the server's own bundle neither includes it nor its bundler.
 */
const DEV_BUNDLER = new URL('./worker-task.dev.mjs', import.meta.url).href;
const startable = async (entry: URL): Promise<URL> => {
  if (!entry.pathname.endsWith('.ts')) return entry;
  const { taskBundle } = (await import(DEV_BUNDLER)) as { taskBundle: (source: string) => Promise<URL> };
  return taskBundle(entry.href);
};

/** Runs the task of the worker module `entry` on `input` (copied to the thread) within `limits`. */
export const runTask = async <T>(entry: URL, input: unknown, limits: TaskLimits): Promise<T> => {
  const worker = new Worker(await startable(entry), {
    workerData: { input },
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new TaskLimitError('time'))), limits.timeoutMs);
    worker.once('message', (answer: Answer) =>
      settle(() => {
        if ('result' in answer) resolve(answer.result as T);
        else if ('refused' in answer) reject(new TaskRefusal(answer.refused.message, answer.refused.field));
        else reject(new Error(answer.error));
      }),
    );
    worker.once('error', (error: NodeJS.ErrnoException) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TaskLimitError('memory') : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the task's worker stopped with code ${code}`))));
  });
};

/** In a task's worker: runs `task` on the caller's input and answers its result, its refusal or its error. */
export const serveTask = <I, T>(task: (input: I) => T | Promise<T>): void => {
  const answer = (message: Answer) => parentPort?.postMessage(message);
  Promise.resolve()
    .then(() => task((workerData as { input: I }).input))
    .then(
      (result) => answer({ result }),
      (error: unknown) =>
        answer(
          error instanceof TaskRefusal
            ? { refused: { message: error.message, field: error.field } }
            : { error: error instanceof Error ? error.message : String(error) },
        ),
    );
};
