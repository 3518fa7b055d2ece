/** A process's CPU time and memory, read from /proc (Linux). Not a benchmark itself. */
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100;

/** CPU seconds of a process (all its threads, user and system), its resident memory and its peak, from /proc. */
export const processFigures = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN) * 1024;
  return { cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS, rss: kb('VmRSS'), peak: kb('VmHWM') };
};
