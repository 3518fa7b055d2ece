import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  type PRICE_TYPES,
  TITLE_MAX,
  TITLE_MIN,
  type TWizardStep,
} from './constants';

/** What the wizard has gathered so far. */
export interface WizardDraft {
  marketplaceType: string;
  title: string;
  description: string;
  timeframe: string;
  category: string;
  image: string;
  icon: string;
  budget: string;
  priceType: (typeof PRICE_TYPES)[number];
}

export interface WizardContact {
  name: string;
  businessName: string;
  email: string;
  acceptedTerms: boolean;
}

/** The simple address pattern of the contact step. */
export const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Budget input: characters other than digits and the dot are stripped. */
export const cleanBudget = (value: string) => value.replace(/[^0-9.]/g, '');

/**
 * The message of the first rule the current step breaks, or null (spec/billing-accounts.md 5,
 * Marketplace wizard). Continue validates only the current step.
 */
export const validateWizardStep = (
  step: TWizardStep,
  draft: WizardDraft,
  contact: WizardContact,
  signedIn: boolean,
): string | null => {
  switch (step) {
    case 'title': {
      const title = draft.title.trim();
      if (!title) return 'Please enter a project title';
      if (title.length < TITLE_MIN) return `Title must be at least ${TITLE_MIN} characters long.`;
      if (title.length > TITLE_MAX) return `Title must be at most ${TITLE_MAX} characters long.`;
      return null;
    }
    case 'description': {
      const description = draft.description.trim();
      if (!description) return 'Please enter a project description';
      if (description.length < DESCRIPTION_MIN)
        return `Description must be at least ${DESCRIPTION_MIN} characters long.`;
      if (description.length > DESCRIPTION_MAX)
        return `Description must be at most ${DESCRIPTION_MAX} characters long.`;
      return null;
    }
    case 'timeframe':
      return draft.timeframe.trim() ? null : 'Please enter a timeframe';
    case 'category':
      return draft.category ? null : 'Please select a category';
    case 'image':
      return draft.image ? null : 'Please select a project image';
    case 'avatar':
      return draft.icon ? null : 'Please select an avatar';
    case 'budget': {
      const budget = cleanBudget(draft.budget);
      return budget && Number.isFinite(Number(budget)) ? null : 'Please enter a budget';
    }
    case 'contact':
      if (!contact.name.trim()) return 'Please enter your name';
      if (!contact.businessName.trim()) return 'Please enter your business name';
      if (!signedIn) {
        if (!SIMPLE_EMAIL.test(contact.email.trim())) return 'Please enter a valid email address';
        if (!contact.acceptedTerms) return 'You must accept the terms of service to continue';
      }
      return null;
    default:
      return null;
  }
};

/** The display price: '$500', with ' a month' or ' a week' appended for recurring budgets. */
export const formatProjectPrice = (value: number, priceType: (typeof PRICE_TYPES)[number]) => {
  const amount = Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2);
  const suffix = priceType === 'monthly' ? ' a month' : priceType === 'weekly' ? ' a week' : '';
  return `$${amount}${suffix}`;
};

/** The progress bar: step index over 10 as a percentage (the first step shows 10%). */
export const wizardProgress = (index: number, steps = 10) => Math.round(((index + 1) / steps) * 100);

/** The daily-limit message (spec/billing-accounts.md 8, Project creation). */
export const dailyLimitMessage = (dailyLimit = 2, projectsToday = 2) =>
  `Daily limit reached! You can only create ${dailyLimit} projects per day. You've already created ${projectsToday} projects today. Please try again tomorrow.`;
