import { describe, expect, it } from 'vitest';
import { computeRank } from './rank';

const zero = {
  agentsDeployed: 0,
  conversationsHandled: 0,
  evaluationsPassed: 0,
  demosShared: 0,
  marketplaceProjects: 0,
};

describe('the user rank', () => {
  it('starts at level 1 with the next level’s requirement', () => {
    const rank = computeRank(zero);
    expect(rank).toMatchObject({ level: 1, levelName: 'Newcomer', points: 0, progress: 0 });
    expect(rank.nextLevel).toEqual({ level: 2, name: 'Builder', points: 50, pointsToGo: 50 });
  });

  it('adds points from what the agency builds and runs', () => {
    const rank = computeRank({
      ...zero,
      agentsDeployed: 2,
      conversationsHandled: 30,
      demosShared: 1,
      marketplaceProjects: 1,
    });
    expect(rank.points).toBe(50 + 30 + 10 + 15);
    expect(rank).toMatchObject({ level: 2, levelName: 'Builder', levelPoints: 50 });
    expect(rank.nextLevel?.pointsToGo).toBe(200 - 105);
    expect(rank.progress).toBe(Math.floor((55 / 150) * 100));
  });

  it('stops at the top level', () => {
    const rank = computeRank({ ...zero, conversationsHandled: 100_000 });
    expect(rank).toMatchObject({ level: 6, levelName: 'AI Legend', nextLevel: null, progress: 100 });
  });
});
