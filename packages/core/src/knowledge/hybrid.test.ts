import { describe, expect, it } from 'vitest';
import { buildVectorIndex, fuseRankings, nearestVectors, parseVectorText, unitVector } from './hybrid';

describe('hybrid retrieval helpers', () => {
  it('finds the nearest vectors by cosine, skipping items without a vector of the right size', () => {
    const index = buildVectorIndex([[1, 0, 0], null, [0, 2, 0], [1, 1, 0], [1, 2]], 3);
    expect(Array.from(index.ids)).toEqual([0, 2, 3]);
    const nearest = nearestVectors(index, [3, 0.1, 0], 2);
    expect(nearest.map((item) => item.id)).toEqual([0, 3]);
    expect(nearest[0]?.score).toBeCloseTo(0.9994, 3);
    expect(nearestVectors(index, [1, 0], 2)).toEqual([]);
  });

  it('fuses rankings: an item high in both beats one high in only one', () => {
    expect(
      fuseRankings(
        [
          [1, 2, 3],
          [2, 4, 1],
        ],
        3,
      ).map((item) => item.id),
    ).toEqual([2, 1, 4]);
    expect(fuseRankings([[], [7]], 5)).toEqual([{ id: 7, score: 1 / 61 }]);
  });

  it('reads PostgreSQL array text and scales vectors to length 1', () => {
    expect(parseVectorText('{0.5,-1,2e-3}')).toEqual([0.5, -1, 0.002]);
    expect(parseVectorText('{}')).toEqual([]);
    expect(Array.from(unitVector([3, 4]))).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(Array.from(unitVector([0, 0]))).toEqual([0, 0]);
  });
});
