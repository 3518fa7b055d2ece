import type { WizardContact, WizardDraft } from '@switchboard/core';
import { storage } from '../../lib/storage';

/** Kept locally while a signed-out author signs in by email (spec/billing-accounts.md 3). */
export const PENDING_PROJECT_KEY = 'marketplace:pendingProject';
export const APPLICANT_NAME_KEY = 'marketplace:applicantName';
export const BUSINESS_NAME_KEY = 'marketplace:businessName';
export const PROFILE_PICTURE_KEY = 'marketplace:profilePicture';
export const RETURN_PATH = '/marketplace?fromMarketplace=true';

export interface PendingProject {
  projectData: WizardDraft;
  contactInfo: Omit<WizardContact, 'acceptedTerms'>;
}

export const readPending = (): PendingProject | null => {
  const value = storage.get<PendingProject | null>(PENDING_PROJECT_KEY, null);
  return value && typeof value === 'object' && value.projectData && value.contactInfo ? value : null;
};

export const storePending = (pending: PendingProject) => storage.set(PENDING_PROJECT_KEY, pending);
export const clearPending = () => storage.remove(PENDING_PROJECT_KEY);

/** Remembers the applicant's name, business name and picture for the next project. */
export const rememberApplicant = (contact: { name: string; businessName: string }, picture: string) => {
  storage.set(APPLICANT_NAME_KEY, contact.name);
  storage.set(BUSINESS_NAME_KEY, contact.businessName);
  if (picture) storage.set(PROFILE_PICTURE_KEY, picture);
};
