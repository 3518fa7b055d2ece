/** Marketplace wizard constants (spec/billing-accounts.md section 9, spec/workspace-widget-demos.md 9). */
export const MARKETPLACE_CATEGORIES = [
  'Chatbots',
  'LLMs',
  'Code',
  'Data',
  'Automation',
  'Web',
  'SAAS',
  'Consulting',
  'Other',
] as const;
export const MARKETPLACE_TYPES = ['agency', 'business'] as const;
export const MARKETPLACE_TYPE_LABELS: Record<(typeof MARKETPLACE_TYPES)[number], string> = {
  agency: 'Agency offer',
  business: 'Business request',
};
export const PRICE_TYPES = ['one-time', 'monthly', 'weekly'] as const;
export const PRICE_TYPE_LABELS: Record<(typeof PRICE_TYPES)[number], string> = {
  'one-time': 'One-time',
  monthly: 'Monthly',
  weekly: 'Weekly',
};
export const TIMEFRAMES = ['1-2 weeks', '2-4 weeks', '1-2 months', '3-6 months', 'Permanent Position'] as const;
export const BUDGET_QUICK_PICKS = [200, 350, 500, 1000, 2500] as const;

export const TITLE_MIN = 5;
export const TITLE_MAX = 75;
export const TITLE_WARN_ABOVE = 65;
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 1000;
export const DESCRIPTION_WARN_ABOVE = 900;
/** The daily project limit when the server does not say otherwise. */
export const DEFAULT_DAILY_PROJECT_LIMIT = 2;
/** The success screen shows this long, then the view refreshes and closes... */
export const PROJECT_SUCCESS_MS = 2500;
/** ...and the wizard resets this much later. */
export const WIZARD_RESET_MS = 300;

/** The ten wizard steps in order, with their labels (spec/billing-accounts.md 2). */
export const WIZARD_STEPS = [
  { key: 'marketplaceType', label: 'Type' },
  { key: 'title', label: 'Title' },
  { key: 'description', label: 'Desc' },
  { key: 'timeframe', label: 'Time' },
  { key: 'category', label: 'Category' },
  { key: 'image', label: 'Image' },
  { key: 'avatar', label: 'Avatar' },
  { key: 'budget', label: 'Budget' },
  { key: 'contact', label: 'Contact' },
  { key: 'review', label: 'Review' },
] as const;
export type TWizardStep = (typeof WIZARD_STEPS)[number]['key'];

/** Project images and avatars shipped with the product (apps/web/public/marketplace). */
export const MARKETPLACE_IMAGES = MARKETPLACE_CATEGORIES.map(
  (category) => `/marketplace/images/${category.toLowerCase()}.svg`,
);
export const MARKETPLACE_AVATARS = Array.from(
  { length: 12 },
  (_, index) => `/marketplace/avatars/avatar-${String(index + 1).padStart(2, '0')}.svg`,
);
