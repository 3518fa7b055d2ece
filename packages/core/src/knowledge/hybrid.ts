/**
 * The meaning half of hybrid retrieval, pure: unit vectors kept back to back in one Float32Array,
 * cosine nearest neighbours over them, and reciprocal rank fusion of the keyword (BM25) and meaning
 * rankings.
 */

/** Dimensions of the stored embeddings (text-embedding-3-small shortened to 256). */
export const EMBEDDING_DIMENSIONS = 256;

/** The vector scaled to length 1 (so a dot product is the cosine); all zeros stays zeros. */
export const unitVector = (values: ArrayLike<number>): Float32Array => {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i] = (vector[i] as number) / norm;
  return vector;
};

/** A PostgreSQL array's text ('{0.1,-0.2}') as numbers. */
export const parseVectorText = (text: string): number[] =>
  text.length > 2 ? text.slice(1, -1).split(',').map(Number) : [];

/** Vectors of some of a list's items: `ids[i]` is the item whose unit vector starts at `i * dims`. */
export interface VectorIndex {
  dims: number;
  ids: Int32Array;
  matrix: Float32Array;
}

/** Builds the index from the items that have a vector of `dims` numbers (the others are left out). */
export const buildVectorIndex = (vectors: (ArrayLike<number> | null)[], dims: number): VectorIndex => {
  const present = vectors.flatMap((vector, id) => (vector && vector.length === dims ? [id] : []));
  const matrix = new Float32Array(present.length * dims);
  present.forEach((id, row) => {
    matrix.set(unitVector(vectors[id] as ArrayLike<number>), row * dims);
  });
  return { dims, ids: Int32Array.from(present), matrix };
};

/** The `limit` items nearest to the query by cosine, best first. */
export const nearestVectors = (
  index: VectorIndex,
  query: ArrayLike<number>,
  limit: number,
): { id: number; score: number }[] => {
  const { dims, ids, matrix } = index;
  if (query.length !== dims || limit <= 0) return [];
  const unit = unitVector(query);
  const best: { id: number; score: number }[] = [];
  for (let row = 0; row < ids.length; row += 1) {
    let score = 0;
    const offset = row * dims;
    for (let i = 0; i < dims; i += 1) score += (matrix[offset + i] as number) * (unit[i] as number);
    if (best.length < limit || score > (best[best.length - 1] as { score: number }).score) {
      let at = best.length;
      while (at > 0 && (best[at - 1] as { score: number }).score < score) at -= 1;
      best.splice(at, 0, { id: ids[row] as number, score });
      if (best.length > limit) best.pop();
    }
  }
  return best;
};

/**
 * Reciprocal rank fusion: each ranking (ids best first) gives an item 1 / (k + rank); the items
 * with the highest sums come first. k = 60 as in Cormack et al.; it needs no score calibration
 * between BM25 and cosine.
 */
export const fuseRankings = (rankings: number[][], limit: number, k = 60): { id: number; score: number }[] => {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1));
    });
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit);
};
