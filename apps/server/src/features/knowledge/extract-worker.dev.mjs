// The reader's worker thread when the server runs from its TypeScript sources (tests, npm run dev):
// tsx compiles the worker on the fly. The built server starts dist/extract-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./extract-worker.ts');
