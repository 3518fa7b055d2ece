import {
  cleanBudget,
  dailyLimitMessage,
  formatProjectPrice,
  PROJECT_SUCCESS_MS,
  type TCreateProjectRequest,
  type TMarketplaceCategory,
  type TWizardStep,
  validateWizardStep,
  WIZARD_RESET_MS,
  WIZARD_STEPS,
  type WizardContact,
  type WizardDraft,
} from '@switchboard/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../lib/api';
import { storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { createProject, saveProfile } from './api';
import {
  APPLICANT_NAME_KEY,
  BUSINESS_NAME_KEY,
  type PendingProject,
  RETURN_PATH,
  rememberApplicant,
  storePending,
} from './pending';

export const emptyDraft = (): WizardDraft => ({
  marketplaceType: '',
  title: '',
  description: '',
  timeframe: '',
  category: '',
  image: '',
  icon: '',
  budget: '',
  priceType: 'one-time',
});

const initialContact = (): WizardContact => ({
  name: storage.get<string>(APPLICANT_NAME_KEY, ''),
  businessName: storage.get<string>(BUSINESS_NAME_KEY, ''),
  email: '',
  acceptedTerms: false,
});

export interface WizardOptions {
  signedIn: boolean;
  accountEmail: string | null;
  directLogin: boolean;
  /** The sign-in link was mailed to the address (the wizard has closed). */
  onEmailSent: (email: string) => void;
  /** A project was posted: refresh what lists projects. */
  onCreated: () => void;
}

const isDailyLimit = (
  body: unknown,
): body is { dailyLimitReached: true; projectsToday?: number; dailyLimit?: number } =>
  Boolean(body && typeof body === 'object' && (body as { dailyLimitReached?: unknown }).dailyLimitReached);

/** The payload of section 3 from what the wizard gathered. */
export const toPayload = (draft: WizardDraft, contact: WizardContact, email: string | null): TCreateProjectRequest => {
  const value = Number(cleanBudget(draft.budget)) || 0;
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    timeframe: draft.timeframe as TCreateProjectRequest['timeframe'],
    price: formatProjectPrice(Math.round(value), draft.priceType),
    priceValue: Math.round(value),
    priceType: draft.priceType,
    image: draft.image,
    icon: draft.icon,
    category: draft.category as TMarketplaceCategory,
    // Continue is allowed without choosing a type; an unchosen type posts a business request.
    marketplaceType: draft.marketplaceType === 'agency' ? 'agency' : 'business',
    authorName: contact.name.trim(),
    email,
    companyName: contact.businessName.trim(),
  };
};

/** The Create AI Project wizard's state and transitions (spec/billing-accounts.md 4). */
export const useProjectWizard = (options: WizardOptions) => {
  const [open, setOpen] = useState(false);
  const [index, setIndex] = useState(0);
  const [draft, setDraftState] = useState<WizardDraft>(emptyDraft);
  const [contact, setContactState] = useState<WizardContact>(initialContact);
  const [error, setError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState(false);
  const timers = useRef<number[]>([]);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(
    () => () => {
      for (const timer of timers.current) window.clearTimeout(timer);
    },
    [],
  );

  const step: TWizardStep = WIZARD_STEPS[index]?.key ?? 'review';

  const reset = useCallback(() => {
    setIndex(0);
    setDraftState(emptyDraft());
    setContactState(initialContact());
    setError(null);
    setEmailError(null);
    setSubmitting(false);
    setCreated(false);
  }, []);

  const start = useCallback((pending?: PendingProject) => {
    if (pending) {
      setDraftState({ ...emptyDraft(), ...pending.projectData });
      setContactState({ ...initialContact(), ...pending.contactInfo, acceptedTerms: true });
      setIndex(WIZARD_STEPS.length - 1);
    }
    setError(null);
    setOpen(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    timers.current.push(window.setTimeout(reset, WIZARD_RESET_MS));
  }, [reset]);

  const setDraft = (patch: Partial<WizardDraft>) => {
    setDraftState((current) => ({ ...current, ...patch }));
    setError(null);
  };
  const setContact = (patch: Partial<WizardContact>) => {
    setContactState((current) => ({ ...current, ...patch }));
    setError(null);
    setEmailError(null);
  };

  /** Signed out: pre-register, keep the project locally, close, and sign in by email. */
  const signInWithProject = async () => {
    const email = contact.email.trim().toLowerCase();
    try {
      await api('/api/auth/pre-register', { body: { email, emailconsent: false }, silent: true });
    } catch (thrown) {
      setEmailError(
        thrown instanceof ApiError && thrown.message ? thrown.message : 'Failed to register. Please try again.',
      );
      return;
    }
    storePending({
      projectData: draft,
      contactInfo: { name: contact.name.trim(), businessName: contact.businessName.trim(), email },
    });
    rememberApplicant(contact, draft.icon);
    if (optionsRef.current.directLogin) {
      try {
        const result = await api<{ redirectUrl: string }>('/api/direct-login', {
          body: { email, returnUrl: RETURN_PATH },
          silent: true,
        });
        window.location.assign(result.redirectUrl);
        return;
      } catch {
        // Not an allow-listed address: the email sign-in follows.
      }
    }
    try {
      await api('/api/auth/sign-in/magic-link', {
        body: { email, callbackURL: RETURN_PATH, emailconsent: false },
        silent: true,
      });
    } catch (thrown) {
      setEmailError(thrown instanceof Error ? thrown.message : 'An error occurred during sign-in');
      return;
    }
    setOpen(false);
    optionsRef.current.onEmailSent(email);
  };

  /** Signed in, at review: post the project, save the profile, show success. */
  const post = async () => {
    try {
      await createProject(toPayload(draft, contact, optionsRef.current.accountEmail));
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.status === 429 && isDailyLimit(thrown.body)) {
        const message = dailyLimitMessage(thrown.body.dailyLimit ?? 2, thrown.body.projectsToday ?? 2);
        setError(message);
        toast.error(message);
        return;
      }
      const status = thrown instanceof ApiError ? thrown.status : 0;
      const message =
        thrown instanceof ApiError && thrown.status === 403
          ? 'Pick a plan to use this feature'
          : (thrown instanceof Error && thrown.message) || `Failed to create project. Status: ${status}`;
      console.error(message);
      setError(message);
      return;
    }
    saveProfile({ name: contact.name.trim(), businessName: contact.businessName.trim(), image: draft.icon }).catch(
      (thrown: unknown) => console.error('Profile save failed', thrown),
    );
    rememberApplicant(contact, draft.icon);
    setCreated(true);
    timers.current.push(
      window.setTimeout(() => {
        optionsRef.current.onCreated();
        setOpen(false);
        timers.current.push(window.setTimeout(reset, WIZARD_RESET_MS));
      }, PROJECT_SUCCESS_MS),
    );
  };

  const next = async () => {
    if (submitting) return;
    const message = validateWizardStep(step, draft, contact, options.signedIn);
    if (message) {
      setError(message);
      return;
    }
    setError(null);
    const needsSignIn = !options.signedIn && (step === 'contact' || step === 'review');
    if (!needsSignIn && step !== 'review') {
      setIndex((current) => Math.min(current + 1, WIZARD_STEPS.length - 1));
      return;
    }
    setSubmitting(true);
    try {
      if (needsSignIn) await signInWithProject();
      else await post();
    } finally {
      setSubmitting(false);
    }
  };

  const back = () => {
    setError(null);
    setEmailError(null);
    setIndex((current) => Math.max(current - 1, 0));
  };

  return {
    open,
    index,
    step,
    draft,
    contact,
    error,
    emailError,
    submitting,
    created,
    start,
    close,
    setDraft,
    setContact,
    next,
    back,
  };
};
export type ProjectWizardState = ReturnType<typeof useProjectWizard>;
