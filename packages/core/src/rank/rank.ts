import { z } from 'zod';

/** What earns points, and how many each (docs/features/rank.md). */
export const RANK_SOURCES = [
  { key: 'agentsDeployed', label: 'Agents deployed', pointsEach: 25 },
  { key: 'conversationsHandled', label: 'Conversations handled', pointsEach: 1 },
  { key: 'evaluationsPassed', label: 'Evaluation answers passed', pointsEach: 2 },
  { key: 'demosShared', label: 'Demos shared', pointsEach: 10 },
  { key: 'marketplaceProjects', label: 'Marketplace projects', pointsEach: 15 },
] as const;
export type TRankSource = (typeof RANK_SOURCES)[number]['key'];
export type TRankCounts = Record<TRankSource, number>;

/** The levels, each from a number of points. */
export const RANK_LEVELS = [
  { level: 1, name: 'Newcomer', points: 0 },
  { level: 2, name: 'Builder', points: 50 },
  { level: 3, name: 'Operator', points: 200 },
  { level: 4, name: 'Automation Pro', points: 600 },
  { level: 5, name: 'Agency Elite', points: 1500 },
  { level: 6, name: 'AI Legend', points: 4000 },
] as const;

/** How often the web app may fetch the rank (spec/billing-accounts.md 9: rank refetch throttle). */
export const RANK_REFETCH_MS = 60_000;

export const ZUserRank = z.object({
  level: z.number().int(),
  levelName: z.string(),
  points: z.number().int(),
  /** Points where the current level starts. */
  levelPoints: z.number().int(),
  /** The next level and what it takes; null at the top level. */
  nextLevel: z
    .object({ level: z.number().int(), name: z.string(), points: z.number().int(), pointsToGo: z.number().int() })
    .nullable(),
  /** Progress from the current level to the next, 0–100 (100 at the top). */
  progress: z.number().int(),
  breakdown: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      count: z.number().int(),
      pointsEach: z.number().int(),
      points: z.number().int(),
    }),
  ),
});
export type TUserRank = z.infer<typeof ZUserRank>;

/** The rank of an agency from its counts. */
export const computeRank = (counts: TRankCounts): TUserRank => {
  const breakdown = RANK_SOURCES.map((source) => {
    const count = Math.max(0, Math.floor(counts[source.key] ?? 0));
    return {
      key: source.key,
      label: source.label,
      count,
      pointsEach: source.pointsEach,
      points: count * source.pointsEach,
    };
  });
  const points = breakdown.reduce((sum, item) => sum + item.points, 0);
  const index = RANK_LEVELS.reduce((found, level, i) => (points >= level.points ? i : found), 0);
  const current = RANK_LEVELS[index] ?? RANK_LEVELS[0];
  const next = RANK_LEVELS[index + 1];
  const progress = next
    ? Math.min(99, Math.floor(((points - current.points) / (next.points - current.points)) * 100))
    : 100;
  return {
    level: current.level,
    levelName: current.name,
    points,
    levelPoints: current.points,
    nextLevel: next
      ? { level: next.level, name: next.name, points: next.points, pointsToGo: next.points - points }
      : null,
    progress,
    breakdown,
  };
};
