import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time the server uses it, synchronously, instead of when it starts:
 * for packages a server may never need while it runs (Stripe without keys, phone numbers without an
 * SMS channel, the CSV and HTML readers). A server at rest does not hold their code
 * (docs/performance.md, "What a server at rest holds"); `import type` gives their types, and
 * platform/lazy-sdks.test.ts keeps a static import from loading them again at start.
 */
export function onFirstUse<T>(name: string): () => T;
/** What `make` builds from the package (an instance with its options), made on first use. */
export function onFirstUse<T, R>(name: string, make: (loaded: T) => R): () => R;
export function onFirstUse<T, R>(name: string, make?: (loaded: T) => R): () => T | R {
  let made: { value: T | R } | undefined;
  return () => {
    if (!made) {
      const loaded = require(name) as T;
      made = { value: make ? make(loaded) : loaded };
    }
    return made.value;
  };
}
