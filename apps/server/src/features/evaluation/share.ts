import type { TOwaspReport, TRunResults } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newToken } from '../../platform/ids';
import { getSmsSettings } from '../theme/service';
import type { ReportBrand } from './exports';
import { getOwaspReport } from './owasp';
import { evaluationRuns } from './schema';
import { getResults, getRunOr404 } from './service';

/**
 * The branded report of a run and its share link: a secret token on the run opens the report
 * without signing in, until it is revoked. The brand is the sub-account's company name, logo and
 * primary colour (the SMS settings of the sub-account, shared with its other client-facing pages).
 */

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Logos come from the sub-account's settings; only https, same-origin paths and image data URLs are drawn. */
const SAFE_LOGO = /^(?:https:\/\/|\/(?!\/)|data:image\/(?:png|jpeg|gif|webp);base64,)/i;

export const reportBrand = async (deps: Deps, subaccountId: string): Promise<ReportBrand> => {
  const settings = await getSmsSettings(deps.db, subaccountId);
  return {
    companyName: settings.companyName,
    logoUrl: settings.logoUrl && SAFE_LOGO.test(settings.logoUrl) ? settings.logoUrl : null,
    primaryColor: HEX.test(settings.primaryColor ?? '') ? (settings.primaryColor as string) : '#43c0b8',
  };
};

export const sharePath = (token: string) => `/api/evaluation/shared/${token}`;

/** Creates the run's share link, or answers the existing one (sharing twice gives one link). */
export const shareRun = async (deps: Deps, subaccountId: string, runId: string) => {
  const run = await getRunOr404(deps, subaccountId, runId);
  if (run.shareToken) return { token: run.shareToken, path: sharePath(run.shareToken) };
  const token = newToken(24);
  const rows = await deps.db
    .update(evaluationRuns)
    .set({ shareToken: token })
    .where(and(eq(evaluationRuns.id, runId), eq(evaluationRuns.subaccountId, subaccountId)))
    .returning({ shareToken: evaluationRuns.shareToken });
  const stored = rows[0]?.shareToken ?? token;
  return { token: stored, path: sharePath(stored) };
};

export const unshareRun = async (deps: Deps, subaccountId: string, runId: string) => {
  await getRunOr404(deps, subaccountId, runId);
  await deps.db
    .update(evaluationRuns)
    .set({ shareToken: null })
    .where(and(eq(evaluationRuns.id, runId), eq(evaluationRuns.subaccountId, subaccountId)));
};

/** The results and brand behind a share token; 404 for an unknown or revoked one. */
export const sharedReport = async (
  deps: Deps,
  token: string,
): Promise<{ results: TRunResults; brand: ReportBrand; owasp: TOwaspReport }> => {
  const rows = token
    ? await deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.shareToken, token)).limit(1)
    : [];
  const run = rows[0];
  if (!run) throw new AppError('NOT_FOUND', 'This report link does not exist or was revoked.');
  const [results, brand, owasp] = await Promise.all([
    getResults(deps, run.subaccountId, run.id),
    reportBrand(deps, run.subaccountId),
    getOwaspReport(deps, run.subaccountId, run.id),
  ]);
  return { results, brand, owasp };
};
