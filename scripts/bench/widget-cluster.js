/**
 * Runs the built server in several processes sharing one port (node:cluster), the way a deployment
 * runs stateless app processes behind a load balancer. The first process migrates and seeds; the
 * others start once it listens; cluster.ready in DATA_DIR says all of them listen. Used by the widget chat benchmark; not a benchmark itself.
 */
import cluster from 'node:cluster';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const count = Number(process.env.BENCH_PROCESSES ?? 2);
cluster.setupPrimary({ exec: path.join(root, 'apps/server/dist/main.js') });
cluster.fork();
let listening = 0;
cluster.on('listening', () => {
  listening += 1;
  if (listening === 1) for (let i = 1; i < count; i += 1) cluster.fork();
  // Tells the benchmark that every process takes connections now.
  if (listening === count) writeFileSync(path.join(process.env.DATA_DIR ?? '.', 'cluster.ready'), '');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 1000);
  });
}
