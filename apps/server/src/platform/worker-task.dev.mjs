// A task's worker when the server runs from its TypeScript sources (tests, npm run dev): tsx
// compiles the worker module on the fly. The built server starts each worker's bundle instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.source);
