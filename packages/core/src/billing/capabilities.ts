import { z } from 'zod';

/** What a plan allows (spec billing-accounts 3, Server plan catalog). Null limits mean unlimited. */
export const ZCapabilities = z.object({
  limits: z.object({
    subaccounts: z.number().int().nullable(),
    connections_per_type: z.number().int().nullable(),
    agents_per_subaccount: z.number().int().nullable(),
  }),
  demos: z.object({ basic: z.boolean(), advanced: z.boolean(), whitelabel: z.boolean() }),
  features: z.object({
    marketplace: z.boolean(),
    whitelabel_subaccounts: z.boolean(),
    whitelabel_branding: z.boolean(),
    priority_support: z.boolean(),
  }),
});
export type TCapabilities = z.infer<typeof ZCapabilities>;

/** The free or base plan: 1 sub-account, 1 connection per type, 1 agent per sub-account, basic demos only. */
export const FREE_CAPABILITIES: TCapabilities = {
  limits: { subaccounts: 1, connections_per_type: 1, agents_per_subaccount: 1 },
  demos: { basic: true, advanced: false, whitelabel: false },
  features: { marketplace: false, whitelabel_subaccounts: false, whitelabel_branding: false, priority_support: false },
};

const caps = (
  limits: TCapabilities['limits'],
  demos: Partial<TCapabilities['demos']>,
  features: Partial<TCapabilities['features']>,
): TCapabilities => ({
  limits,
  demos: { ...FREE_CAPABILITIES.demos, ...demos },
  features: { ...FREE_CAPABILITIES.features, ...features },
});

/** Capabilities per plan family; 'entrepreneurs' is the paid 'For AI Entrepreneurs' (Unlimited Legacy) plan. */
export const FAMILY_CAPABILITIES: Record<string, TCapabilities> = {
  free: FREE_CAPABILITIES,
  starter: caps({ subaccounts: 1, connections_per_type: 3, agents_per_subaccount: null }, {}, {}),
  growth: caps(
    { subaccounts: 5, connections_per_type: 10, agents_per_subaccount: null },
    { advanced: true },
    { marketplace: true },
  ),
  scale: caps(
    { subaccounts: null, connections_per_type: null, agents_per_subaccount: null },
    { advanced: true, whitelabel: true },
    { marketplace: true, whitelabel_subaccounts: true, whitelabel_branding: true },
  ),
  enterprise: caps(
    { subaccounts: null, connections_per_type: null, agents_per_subaccount: null },
    { advanced: true, whitelabel: true },
    { marketplace: true, whitelabel_subaccounts: true, whitelabel_branding: true, priority_support: true },
  ),
  entrepreneurs: caps(
    { subaccounts: null, connections_per_type: null, agents_per_subaccount: null },
    { advanced: true },
    { marketplace: true },
  ),
};

/** Missing values fall back to the default (free) capability set. */
export const capabilitiesFor = (family: string | null | undefined, partial?: Partial<TCapabilities>): TCapabilities => {
  const base = (family && FAMILY_CAPABILITIES[family]) || FREE_CAPABILITIES;
  return {
    limits: { ...base.limits, ...(partial?.limits ?? {}) },
    demos: { ...base.demos, ...(partial?.demos ?? {}) },
    features: { ...base.features, ...(partial?.features ?? {}) },
  };
};

/**
 * The demo tier a demo needs (the spec names basic, advanced and white-label demos): a demo with
 * the agency's own logo is white-label; SMS, Facebook and Instagram demos are advanced; website
 * and standard demos are basic.
 */
export const demoTierFor = (demo: { type?: string | null; logoUrl?: string | null }): keyof TCapabilities['demos'] => {
  if (demo.logoUrl && demo.logoUrl.trim() !== '') return 'whitelabel';
  if (demo.type === 'sms' || demo.type === 'facebook' || demo.type === 'instagram') return 'advanced';
  return 'basic';
};

/** Where a screen sends the user to unlock a feature (a real page: the plans and the plan modal). */
export const UPGRADE_PATH = '/pricing';

/** What an 'Upgrade to Unlock' link unlocks: a demo tier, a feature, or more sub-accounts. */
export type TUnlockable = 'advanced_demos' | 'whitelabel_demos' | keyof TCapabilities['features'] | 'subaccounts';

const UNLOCK_ORDER = ['starter', 'growth', 'scale', 'enterprise'] as const;

const unlocks = (capabilities: TCapabilities, what: TUnlockable): boolean => {
  if (what === 'advanced_demos') return capabilities.demos.advanced;
  if (what === 'whitelabel_demos') return capabilities.demos.whitelabel;
  if (what === 'subaccounts') return (capabilities.limits.subaccounts ?? Number.POSITIVE_INFINITY) > 1;
  return capabilities.features[what];
};

/** The first plan family, in plan order, that unlocks it (Growth for advanced demos and more sub-accounts). */
export const planUnlocking = (what: TUnlockable): (typeof UNLOCK_ORDER)[number] =>
  UNLOCK_ORDER.find((family) => unlocks(capabilitiesFor(family), what)) ?? 'enterprise';

const UNLOCK_LABELS: Record<TUnlockable, string> = {
  advanced_demos: 'advanced demos',
  whitelabel_demos: 'white-label demos',
  subaccounts: 'more active sub-accounts',
  marketplace: 'the marketplace',
  whitelabel_subaccounts: 'white-label sub-accounts',
  whitelabel_branding: 'white-label branding',
  priority_support: 'priority support',
};
export const unlockLabel = (what: string | null | undefined): string | null =>
  what && Object.hasOwn(UNLOCK_LABELS, what) ? UNLOCK_LABELS[what as TUnlockable] : null;

/** The pricing page with the plan that unlocks it highlighted. */
export const upgradePathFor = (what: TUnlockable): string => `${UPGRADE_PATH}?unlock=${what}`;
