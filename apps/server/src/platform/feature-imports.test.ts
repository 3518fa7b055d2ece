import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../features');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.[^']*)'/g;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });

/** The feature folder a resolved path lies in, or null outside apps/server/src/features. */
const featureOf = (file: string): string | null => {
  const relative = path.relative(FEATURES, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep)[0] ?? null;
};

/** Which features each feature's code (tests aside) imports. */
const featureImports = (): Map<string, Set<string>> => {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(FEATURES)) {
    const from = featureOf(file);
    if (!from) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = featureOf(path.resolve(path.dirname(file), match[1] ?? ''));
      if (!to || to === from) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
};

/** One cycle of imports between features (a path that comes back to where it began), or null. */
const findCycle = (edges: Map<string, Set<string>>): string[] | null => {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (feature: string): string[] | null => {
    const looped = path.indexOf(feature);
    if (looped >= 0) return [...path.slice(looped), feature];
    if (done.has(feature)) return null;
    path.push(feature);
    for (const next of [...(edges.get(feature) ?? [])].sort()) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(feature);
    return null;
  };
  for (const feature of [...edges.keys()].sort()) {
    const cycle = visit(feature);
    if (cycle) return cycle;
  }
  return null;
};

describe('features import only downward', () => {
  it('finds the imports between features it checks', () => {
    // The walk itself works: the widget reads conversations, a feature below it.
    expect(featureImports().get('widget')).toContain('conversations');
  });

  it('has no two features importing each other (one reacts to the other through a domain event)', () => {
    const edges = featureImports();
    const pairs = [...edges].flatMap(([from, targets]) =>
      [...targets].filter((to) => from < to && edges.get(to)?.has(from)).map((to) => `${from} <-> ${to}`),
    );
    expect(pairs).toEqual([]);
  });

  it('has no longer loop of imports between features either', () => {
    expect(findCycle(featureImports())?.join(' -> ') ?? null).toBeNull();
  });
});
