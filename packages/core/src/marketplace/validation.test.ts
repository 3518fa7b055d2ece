import { describe, expect, it } from 'vitest';
import { MARKETPLACE_CATEGORIES, WIZARD_STEPS } from './constants';
import {
  cleanBudget,
  dailyLimitMessage,
  formatProjectPrice,
  validateWizardStep,
  type WizardContact,
  type WizardDraft,
  wizardProgress,
} from './validation';

const draft: WizardDraft = {
  marketplaceType: '',
  title: '',
  description: '',
  timeframe: '',
  category: '',
  image: '',
  icon: '',
  budget: '',
  priceType: 'one-time',
};
const contact: WizardContact = { name: '', businessName: '', email: '', acceptedTerms: false };
const check = (
  step: (typeof WIZARD_STEPS)[number]['key'],
  patch: Partial<WizardDraft>,
  who = contact,
  signedIn = true,
) => validateWizardStep(step, { ...draft, ...patch }, who, signedIn);

describe('the marketplace wizard rules (spec/billing-accounts.md 5)', () => {
  it('has the ten steps and labels in order, and the nine categories', () => {
    expect(WIZARD_STEPS.map((step) => step.label)).toEqual([
      'Type',
      'Title',
      'Desc',
      'Time',
      'Category',
      'Image',
      'Avatar',
      'Budget',
      'Contact',
      'Review',
    ]);
    expect(MARKETPLACE_CATEGORIES).toHaveLength(9);
    expect(wizardProgress(0)).toBe(10);
    expect(wizardProgress(9)).toBe(100);
  });

  it('says the texts of each step', () => {
    expect(check('marketplaceType', {})).toBeNull();
    expect(check('title', { title: '   ' })).toBe('Please enter a project title');
    expect(check('title', { title: ' abcd ' })).toBe('Title must be at least 5 characters long.');
    expect(check('title', { title: 'x'.repeat(76) })).toBe('Title must be at most 75 characters long.');
    expect(check('title', { title: 'Fine title' })).toBeNull();
    expect(check('description', {})).toBe('Please enter a project description');
    expect(check('description', { description: 'short' })).toBe('Description must be at least 50 characters long.');
    expect(check('description', { description: 'y'.repeat(1001) })).toBe(
      'Description must be at most 1000 characters long.',
    );
    expect(check('timeframe', {})).toBe('Please enter a timeframe');
    expect(check('category', {})).toBe('Please select a category');
    expect(check('image', {})).toBe('Please select a project image');
    expect(check('avatar', {})).toBe('Please select an avatar');
    expect(check('budget', { budget: 'abc' })).toBe('Please enter a budget');
    expect(check('budget', { budget: '500' })).toBeNull();
  });

  it('asks for email and terms only when signed out', () => {
    expect(check('contact', {})).toBe('Please enter your name');
    expect(check('contact', {}, { ...contact, name: 'Dana' })).toBe('Please enter your business name');
    const named = { ...contact, name: 'Dana', businessName: 'Smile' };
    expect(check('contact', {}, named)).toBeNull();
    expect(check('contact', {}, { ...named, email: 'nope' }, false)).toBe('Please enter a valid email address');
    expect(check('contact', {}, { ...named, email: 'dana@smile.test' }, false)).toBe(
      'You must accept the terms of service to continue',
    );
    expect(check('contact', {}, { ...named, email: 'dana@smile.test', acceptedTerms: true }, false)).toBeNull();
  });

  it('strips budget characters, formats prices and the daily-limit message', () => {
    expect(cleanBudget('$1,000.50abc')).toBe('1000.50');
    expect(formatProjectPrice(500, 'one-time')).toBe('$500');
    expect(formatProjectPrice(1000, 'monthly')).toBe('$1,000 a month');
    expect(formatProjectPrice(350, 'weekly')).toBe('$350 a week');
    expect(dailyLimitMessage()).toBe(
      "Daily limit reached! You can only create 2 projects per day. You've already created 2 projects today. Please try again tomorrow.",
    );
  });
});
