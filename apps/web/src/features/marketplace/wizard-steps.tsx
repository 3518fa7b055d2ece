import {
  BUDGET_QUICK_PICKS,
  cleanBudget,
  DESCRIPTION_MAX,
  DESCRIPTION_WARN_ABOVE,
  MARKETPLACE_CATEGORIES,
  MARKETPLACE_TYPE_LABELS,
  MARKETPLACE_TYPES,
  PRICE_TYPE_LABELS,
  PRICE_TYPES,
  TIMEFRAMES,
  TITLE_MAX,
  TITLE_WARN_ABOVE,
} from '@switchboard/core';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Textarea } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { usePictures } from './api';
import { type ProjectWizardState, toPayload } from './use-project-wizard';

const choice = (selected: boolean) =>
  cn(
    'rounded-lg border px-3 py-2 text-left text-sm transition-colors',
    selected ? 'border-primary bg-primary/15 text-foreground' : 'border-border bg-surface hover:bg-surface-2',
  );

const Counter = ({ length, max, warnAbove, id }: { length: number; max: number; warnAbove: number; id: string }) => (
  <p
    id={id}
    className={cn('mt-1 text-right text-xs', length > warnAbove ? 'text-amber-600 dark:text-amber-400' : 'text-muted')}
  >
    {length}/{max}
  </p>
);

const PictureGrid = ({
  pictures,
  selected,
  onSelect,
  label,
  round,
}: {
  pictures: string[];
  selected: string;
  onSelect: (path: string) => void;
  label: (index: number) => string;
  round?: boolean;
}) => (
  <div
    role="radiogroup"
    aria-label={round ? 'Avatars' : 'Project images'}
    className="grid grid-cols-3 gap-2 sm:grid-cols-4"
  >
    {pictures.map((path, index) => (
      // biome-ignore lint/a11y/useSemanticElements: a picture chooser is a group of image buttons
      <button
        key={path}
        type="button"
        role="radio"
        aria-checked={selected === path}
        aria-label={label(index)}
        onClick={() => onSelect(path)}
        className={cn(
          'overflow-hidden border-2 p-0.5',
          round ? 'rounded-full' : 'rounded-lg',
          selected === path ? 'border-primary' : 'border-transparent',
        )}
      >
        <img src={path} alt="" className={cn('aspect-square w-full', round ? 'rounded-full' : 'rounded-md')} />
      </button>
    ))}
  </div>
);

const pictureName = (path: string) => (path.split('/').pop() ?? path).replace(/\.svg$/, '').replace(/-/g, ' ');

export const WizardStep = ({ wizard, signedIn }: { wizard: ProjectWizardState; signedIn: boolean }) => {
  const { step, draft, contact, setDraft, setContact } = wizard;
  const images = usePictures('/api/marketplace/marketplace-images', wizard.open && step === 'image');
  const avatars = usePictures('/api/avatars', wizard.open && (step === 'avatar' || step === 'review'));
  const [choosingAvatar, setChoosingAvatar] = useState(false);

  switch (step) {
    case 'marketplaceType':
      return (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-medium">Are you offering a service or looking for one?</legend>
          {MARKETPLACE_TYPES.map((type) => (
            <label key={type} className={cn(choice(draft.marketplaceType === type), 'flex items-start gap-3')}>
              <input
                type="radio"
                name="marketplaceType"
                className="mt-1 accent-[var(--primary)]"
                checked={draft.marketplaceType === type}
                onChange={() => setDraft({ marketplaceType: type })}
              />
              <span>
                <span className="block font-medium">{MARKETPLACE_TYPE_LABELS[type]}</span>
                <span className="text-muted">
                  {type === 'agency'
                    ? 'Your agency offers an AI service to businesses.'
                    : 'Your business is looking for an agency to build something.'}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      );
    case 'title':
      return (
        <div>
          <Label htmlFor="project-title">Project title</Label>
          <Input
            id="project-title"
            value={draft.title}
            maxLength={TITLE_MAX}
            placeholder="e.g. AI receptionist for a dental clinic"
            aria-describedby="project-title-count"
            onChange={(event) => setDraft({ title: event.target.value })}
          />
          <Counter id="project-title-count" length={draft.title.length} max={TITLE_MAX} warnAbove={TITLE_WARN_ABOVE} />
        </div>
      );
    case 'description':
      return (
        <div>
          <Label htmlFor="project-description">Description</Label>
          <Textarea
            id="project-description"
            value={draft.description}
            maxLength={DESCRIPTION_MAX}
            rows={7}
            placeholder="What should be built or offered, for whom, and what does success look like?"
            aria-describedby="project-description-count"
            onChange={(event) => setDraft({ description: event.target.value })}
          />
          <Counter
            id="project-description-count"
            length={draft.description.length}
            max={DESCRIPTION_MAX}
            warnAbove={DESCRIPTION_WARN_ABOVE}
          />
        </div>
      );
    case 'timeframe':
      return (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Timeframe</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {TIMEFRAMES.map((timeframe) => (
              <button
                key={timeframe}
                type="button"
                aria-pressed={draft.timeframe === timeframe}
                className={choice(draft.timeframe === timeframe)}
                onClick={() => setDraft({ timeframe })}
              >
                {timeframe}
              </button>
            ))}
          </div>
        </fieldset>
      );
    case 'category':
      return (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Category</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {MARKETPLACE_CATEGORIES.map((category) => (
              <button
                key={category}
                type="button"
                aria-pressed={draft.category === category}
                className={choice(draft.category === category)}
                onClick={() => setDraft({ category })}
              >
                {category}
              </button>
            ))}
          </div>
        </fieldset>
      );
    case 'image':
      if (images.isLoading) return <Spinner label="Loading images" />;
      if (!images.data?.length) return <p className="text-sm text-muted">No images found or failed to load.</p>;
      return (
        <div>
          <p className="mb-2 text-sm font-medium">Project image</p>
          <PictureGrid
            pictures={images.data}
            selected={draft.image}
            onSelect={(image) => setDraft({ image })}
            label={(index) => `Image ${index + 1}: ${pictureName(images.data?.[index] ?? '')}`}
          />
        </div>
      );
    case 'avatar': {
      const showChooser = choosingAvatar || !draft.icon;
      if (avatars.isLoading) return <Spinner label="Loading avatars" />;
      if (!avatars.data?.length) return <p className="text-sm text-muted">No icons found or failed to load.</p>;
      return (
        <div className="space-y-3">
          {draft.icon ? (
            <div className="flex items-center gap-3">
              <img src={draft.icon} alt="Chosen avatar" className="h-14 w-14 rounded-full" />
              <Button variant="secondary" size="sm" onClick={() => setChoosingAvatar((value) => !value)}>
                {choosingAvatar ? 'Keep this avatar' : 'Change avatar'}
              </Button>
            </div>
          ) : (
            <p className="text-sm font-medium">Choose your avatar</p>
          )}
          {showChooser ? (
            <PictureGrid
              round
              pictures={avatars.data}
              selected={draft.icon}
              onSelect={(icon) => {
                setDraft({ icon });
                setChoosingAvatar(false);
              }}
              label={(index) => `Avatar ${index + 1}`}
            />
          ) : null}
        </div>
      );
    }
    case 'budget':
      return (
        <div className="space-y-3">
          <div>
            <Label htmlFor="project-budget">Budget (USD)</Label>
            <Input
              id="project-budget"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              value={draft.budget}
              onChange={(event) => setDraft({ budget: cleanBudget(event.target.value) })}
            />
          </div>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Quick picks</legend>
            {BUDGET_QUICK_PICKS.map((amount) => (
              <button
                key={amount}
                type="button"
                aria-pressed={draft.budget === String(amount)}
                className={choice(draft.budget === String(amount))}
                onClick={() => setDraft({ budget: String(amount) })}
              >
                ${amount.toLocaleString('en-US')}
              </button>
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Schedule</legend>
            <div className="flex flex-wrap gap-2">
              {PRICE_TYPES.map((priceType) => (
                <label key={priceType} className={cn(choice(draft.priceType === priceType), 'flex items-center gap-2')}>
                  <input
                    type="radio"
                    name="priceType"
                    className="accent-[var(--primary)]"
                    checked={draft.priceType === priceType}
                    onChange={() => setDraft({ priceType })}
                  />
                  {PRICE_TYPE_LABELS[priceType]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
      );
    case 'contact':
      return (
        <div className="space-y-3">
          <div>
            <Label htmlFor="contact-name">Your name</Label>
            <Input
              id="contact-name"
              autoComplete="name"
              value={contact.name}
              onChange={(event) => setContact({ name: event.target.value })}
            />
          </div>
          <div>
            <Label htmlFor="contact-business">Business name</Label>
            <Input
              id="contact-business"
              autoComplete="organization"
              value={contact.businessName}
              onChange={(event) => setContact({ businessName: event.target.value })}
            />
          </div>
          {signedIn ? null : (
            <>
              <div>
                <Label htmlFor="contact-email">Email</Label>
                <Input
                  id="contact-email"
                  type="email"
                  autoComplete="email"
                  value={contact.email}
                  aria-invalid={wizard.emailError ? true : undefined}
                  aria-describedby={wizard.emailError ? 'contact-email-error' : undefined}
                  onChange={(event) => setContact({ email: event.target.value })}
                />
                <FieldError id="contact-email-error">{wizard.emailError}</FieldError>
                <p className="mt-1 text-xs text-muted">
                  We send a sign-in link to this address; your project goes live once you sign in.
                </p>
              </div>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 accent-[var(--primary)]"
                  checked={contact.acceptedTerms}
                  onChange={(event) => setContact({ acceptedTerms: event.target.checked })}
                />
                <span>
                  I accept the{' '}
                  <a className="underline" href="/terms" target="_blank" rel="noreferrer">
                    Terms of Service
                  </a>{' '}
                  and the{' '}
                  <a className="underline" href="/privacy-policy" target="_blank" rel="noreferrer">
                    Privacy Policy
                  </a>
                  .
                </span>
              </label>
            </>
          )}
        </div>
      );
    default: {
      const payload = toPayload(draft, contact, null);
      const rows: [string, string][] = [
        ['Type', payload.marketplaceType === 'agency' ? 'Agency offer' : 'Business request'],
        ['Title', payload.title],
        ['Timeframe', payload.timeframe],
        ['Category', payload.category],
        ['Budget', payload.price ?? ''],
        ['Name', payload.authorName],
        ['Business', payload.companyName],
      ];
      return (
        <div className="space-y-3 text-sm">
          <div className="flex items-center gap-3">
            {draft.image ? <img src={draft.image} alt="" className="h-14 w-14 rounded-lg" /> : null}
            {draft.icon ? <img src={draft.icon} alt="" className="h-10 w-10 rounded-full" /> : null}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted">{label}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="whitespace-pre-wrap break-words rounded-lg bg-surface-2 p-3">{payload.description}</p>
        </div>
      );
    }
  }
};
