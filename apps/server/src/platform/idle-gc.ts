import { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives the memory of a busy spell back once the process is idle. Under load V8 grows its heap
 * and keeps it for a long while after (on a small server, 200 MB more than at rest); one
 * compacting collection once the event loop has been idle for a while (5 s) returns it. The
 * collection is costly (it repeats until nothing more is freed), so it never runs in a short pause
 * between requests, only after the heap has grown by `minGrowthBytes` since the last one (and once
 * after start), and never while a request is being served.
 */
/**
 * Lets the old generation grow by `percent` past what the last full collection kept before V8
 * starts the next one. V8 picks this factor itself from how fast the program allocates compared
 * with how fast it collects; at a chat's pace (a server allocating little) it falls to its floor,
 * 1.1, and a full collection comes every few seconds. Each holds the main thread for 20 to 50 ms
 * on a small machine (marking steps and the final pause), and every reply in flight waits: on two
 * cores, most of a paced run's slowest hundredth. At 100 (twice) they come about every 30 s at
 * that pace; the price is memory while busy, which the idle collector below gives back. 0 leaves
 * the factor to V8.
 */
export const setHeapGrowth = (percent: number) => {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
};

export interface IdleCollector {
  stop(): void;
}

/**
 * V8's collection that also gives the heap's free pages back (what the inspector's "collect
 * garbage" does: a plain full collection keeps the heap at its grown size), through an in-process
 * inspector session (no port is opened). Without the inspector, the plain full collection.
 */
const fullCollection = (): (() => void) => {
  try {
    const session = new Session();
    session.connect();
    return () => session.post('HeapProfiler.collectGarbage');
  } catch {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  }
};

export const startIdleCollector = ({
  intervalMs = 1000,
  idleIntervals = 5,
  idleBelow = 0.05,
  minGrowthBytes = 32 * 1024 * 1024,
  collect = fullCollection(),
  heapBytes = () => process.memoryUsage().heapTotal,
} = {}): IdleCollector => {
  let last = performance.eventLoopUtilization();
  // The first idle moment collects too: starting (migrations, the seed) leaves garbage behind.
  let collectedAt = 0;
  let idleFor = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    idleFor = busy < idleBelow ? idleFor + 1 : 0;
    const heap = heapBytes();
    if (idleFor >= idleIntervals && heap - collectedAt >= minGrowthBytes) {
      collect();
      collectedAt = heapBytes();
      idleFor = 0;
    } else if (heap < collectedAt) {
      collectedAt = heap;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
