/**
 * A verified domain stays verified only while it holds: each one its own check proved is checked
 * again once a day, and after RECHECK_FAILURES_ALLOWED failures in a row it is no longer verified
 * (links and the portal on it stop). One confirmed by an operator is kept. A plan without
 * white-label branding stops the account's domain at once (`plan.changed`), and the hourly pass
 * catches a plan that changed any other way; after an upgrade the agency verifies it again.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { defineReaction } from '../../platform/domain-events';
import type { RecurringTask } from '../../platform/jobs';
import { planCapabilities } from '../billing/limits';
import { publishDomainChange } from './mapping';
import { agencyDomains } from './schema';
import { claimCheck, type DomainRow, runCheck } from './service';

export const RECHECK_AFTER_MS = 24 * 60 * 60_000;
export const RECHECK_FAILURES_ALLOWED = 3;
/** Re-checks one pass makes at most; the rest wait for the next hour. */
const RECHECKS_PER_PASS = 100;

export const PLAN_LOST_MESSAGE =
  'Your plan no longer includes white-label branding, so this domain is not used. Upgrade, then verify it again.';

/** Stops the account's verified domain because its plan lost white-label branding. */
const stopForPlan = async (deps: Deps, accountId: string) => {
  const stopped = await deps.db
    .update(agencyDomains)
    .set({
      status: 'failed',
      verifiedAt: null,
      verifiedBy: null,
      failedRechecks: 0,
      lastCheckedAt: new Date(),
      lastCheckResult: PLAN_LOST_MESSAGE,
    })
    .where(and(eq(agencyDomains.accountId, accountId), eq(agencyDomains.status, 'verified')))
    .returning({ hostname: agencyDomains.hostname });
  if (stopped.length > 0)
    await publishDomainChange(
      deps,
      stopped.map((row) => row.hostname),
    );
};

const stopIfPlanLost = async (deps: Deps, accountId: string) => {
  const capabilities = await planCapabilities(deps, accountId);
  if (!capabilities.features.whitelabel_branding) await stopForPlan(deps, accountId);
};

export const stopDomainWithoutBranding = defineReaction({
  event: 'plan.changed',
  name: 'domains.stop-without-branding',
  runs: 'after-commit',
  wants: (_deps, payload) => payload.features.whitelabel_branding !== true,
  handle: (deps, payload) => stopIfPlanLost(deps, payload.accountId),
});

/** Records a re-check's result on the claim it was made for; the third failure in a row ends the verification. */
const recordRecheck = async (deps: Deps, claimed: DomainRow, ok: boolean, message: string) => {
  const sameClaim = and(
    eq(agencyDomains.accountId, claimed.accountId),
    eq(agencyDomains.token, claimed.token),
    eq(agencyDomains.hostname, claimed.hostname),
    eq(agencyDomains.status, 'verified'),
  );
  const failures = ok ? 0 : claimed.failedRechecks + 1;
  const ends = failures >= RECHECK_FAILURES_ALLOWED;
  await deps.db
    .update(agencyDomains)
    .set({
      lastCheckedAt: new Date(),
      lastCheckResult: ends
        ? `No longer verified after ${RECHECK_FAILURES_ALLOWED} failed daily checks: ${message}`
        : message,
      checkStartedAt: null,
      failedRechecks: ends ? 0 : failures,
      ...(ends ? { status: 'failed' as const, verifiedAt: null, verifiedBy: null } : {}),
    })
    .where(sameClaim);
  if (ends) await publishDomainChange(deps, [claimed.hostname]);
};

/** One pass: plans first, then the domains whose last check is a day old. */
export const recheckDomains = async (deps: Deps, signal: AbortSignal, now = new Date()) => {
  const verified = await deps.db
    .select({ accountId: agencyDomains.accountId })
    .from(agencyDomains)
    .where(eq(agencyDomains.status, 'verified'));
  for (const { accountId } of verified) {
    if (signal.aborted) return;
    await stopIfPlanLost(deps, accountId);
  }
  const due = await deps.db
    .select({ accountId: agencyDomains.accountId })
    .from(agencyDomains)
    .where(
      and(
        eq(agencyDomains.status, 'verified'),
        eq(agencyDomains.verifiedBy, 'check'),
        lt(agencyDomains.lastCheckedAt, new Date(now.getTime() - RECHECK_AFTER_MS)),
      ),
    )
    .orderBy(asc(agencyDomains.lastCheckedAt))
    .limit(RECHECKS_PER_PASS);
  for (const { accountId } of due) {
    if (signal.aborted) return;
    const claimed = await claimCheck(deps, accountId);
    if (!claimed) continue;
    if (claimed.status !== 'verified') {
      await deps.db
        .update(agencyDomains)
        .set({ checkStartedAt: null })
        .where(and(eq(agencyDomains.accountId, accountId), eq(agencyDomains.token, claimed.token)));
      continue;
    }
    const result = await runCheck(deps, claimed).catch((error: Error) => ({ ok: false, message: error.message }));
    await recordRecheck(deps, claimed, result.ok, result.message);
  }
};

export const DOMAIN_RECHECK: RecurringTask = {
  name: 'domains.recheck',
  everyMs: 60 * 60_000,
  run: (deps, signal) => recheckDomains(deps, signal),
};
