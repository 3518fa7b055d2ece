/** The way out of a plan limit ('Your plan allows 1 agent…'): a button to the plans, beside 'Try again'. */
import { UPGRADE_PATH } from '@switchboard/core';
import { Link } from 'react-router';

/** The error code of a plan limit or a feature the plan lacks (403). */
export const PLAN_LIMIT_CODE = 'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED';

export const isPlanLimit = (code: string | null | undefined): boolean => code === PLAN_LIMIT_CODE;

/** 'View Plans' to the pricing page (which opens the plan modal for a subscriber), for a plan limit only. */
export const PlanLimitAction = ({ code }: { code: string | null | undefined }) =>
  isPlanLimit(code) ? (
    <Link
      to={UPGRADE_PATH}
      className="inline-flex h-8 items-center rounded-lg bg-primary px-3 text-sm font-medium text-primary-foreground"
    >
      View Plans
    </Link>
  ) : null;
