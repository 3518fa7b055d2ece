import {
  MARKETPLACE_CATEGORIES,
  MARKETPLACE_TYPE_LABELS,
  MARKETPLACE_TYPES,
  PRICE_TYPE_LABELS,
  PRICE_TYPES,
  TIMEFRAMES,
} from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { MailCheck, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label, Select } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { openSignIn } from '../auth/sign-in-store';
import { useSession } from '../session/session';
import { type BrowseFilter, BUDGET_BANDS, MARKETPLACE_KEY, PAGE_SIZE, useProjects } from './api';
import { clearPending, readPending } from './pending';
import { ProjectCard } from './project-card';
import { ProjectWizard } from './project-wizard';
import { useProjectWizard } from './use-project-wizard';

const emptyFilter: BrowseFilter = {
  q: '',
  category: '',
  type: '',
  priceType: '',
  budget: '',
  timeframe: '',
  mine: false,
  page: 1,
};

/** /marketplace: browse agency offers and business requests, and post a project with the wizard. */
export const MarketplacePage = () => {
  const { user, providers } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const wizard = useProjectWizard({
    signedIn: Boolean(user),
    accountEmail: user?.email ?? null,
    directLogin: providers.directLogin,
    onEmailSent: setSentTo,
    onCreated: () => void queryClient.invalidateQueries({ queryKey: MARKETPLACE_KEY }),
  });
  const { start } = wizard;

  // Back from signing in: the wizard reopens at review with the kept project, which is then cleared.
  const fromMarketplace = params.get('fromMarketplace') === 'true';
  useEffect(() => {
    if (!user || !fromMarketplace) return;
    const pending = readPending();
    if (pending) start(pending);
    clearPending();
    navigate('/marketplace', { replace: true });
  }, [user, fromMarketplace, start, navigate]);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-muted">
          Agencies offer AI services here and businesses post what they need built. Post a project, or answer one: your
          message reaches the author by email without either address being shown.
        </p>
        <Button onClick={() => start()}>
          <Plus size={16} aria-hidden="true" /> Create AI Project
        </Button>
      </div>
      {user ? (
        <Browse />
      ) : (
        <Card className="space-y-3 text-center">
          <h2 className="text-lg font-semibold">Browse the marketplace</h2>
          <p className="text-sm text-muted">
            Sign in to browse projects and answer them. You can post a project now: we ask for your email at the end.
          </p>
          <Button variant="secondary" onClick={() => openSignIn({ returnUrl: '/marketplace' })}>
            Sign in to browse
          </Button>
        </Card>
      )}
      <ProjectWizard wizard={wizard} signedIn={Boolean(user)} />
      <Dialog
        open={sentTo !== null}
        onOpenChange={(open) => (open ? undefined : setSentTo(null))}
        title="Check your email"
      >
        <div className="flex items-start gap-3 rounded-lg bg-surface-2 p-4 text-sm">
          <MailCheck className="mt-0.5 shrink-0 text-primary" size={20} aria-hidden="true" />
          <p>
            We sent a sign-in link to <strong>{sentTo}</strong>. Open it and press <strong>Sign in</strong>: the wizard
            opens again at the review step with your project.
          </p>
        </div>
      </Dialog>
    </div>
  );
};

const Browse = () => {
  const [filter, setFilter] = useState<BrowseFilter>(emptyFilter);
  const [search, setSearch] = useState('');
  const projects = useProjects(filter, true);
  const update = (patch: Partial<BrowseFilter>) => setFilter((current) => ({ ...current, ...patch, page: 1 }));
  useEffect(() => {
    const timer = window.setTimeout(
      () => setFilter((current) => (current.q === search ? current : { ...current, q: search, page: 1 })),
      300,
    );
    return () => window.clearTimeout(timer);
  }, [search]);
  const data = projects.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <section aria-labelledby="browse-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="browse-heading" className="text-lg font-semibold">
          {filter.mine ? 'My projects' : 'Projects'}
        </h2>
        <fieldset className="flex gap-1 rounded-lg border border-border p-1">
          <legend className="sr-only">Show</legend>
          {[false, true].map((mine) => (
            <button
              key={String(mine)}
              type="button"
              aria-pressed={filter.mine === mine}
              onClick={() => update({ mine })}
              className={cn(
                'rounded-md px-3 py-1 text-sm',
                filter.mine === mine ? 'bg-primary text-primary-foreground' : 'hover:bg-surface-2',
              )}
            >
              {mine ? 'My projects' : 'All projects'}
            </button>
          ))}
        </fieldset>
      </div>
      {data && !data.canTrade ? (
        <p className="rounded-lg border border-border bg-surface-2 p-3 text-sm">
          Your plan lets you browse and post business requests. Posting agency offers and answering projects come with
          the Growth plan and above.{' '}
          <Link className="underline" to="/usage">
            See your plan
          </Link>
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <div className="sm:col-span-2 lg:col-span-5">
          <Label htmlFor="market-search">Search projects</Label>
          <Input
            id="market-search"
            type="search"
            value={search}
            placeholder="Title, description or business"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <FilterSelect
          id="market-type"
          label="Type"
          value={filter.type}
          onChange={(type) => update({ type })}
          options={[
            ['', 'All types'],
            ...MARKETPLACE_TYPES.map((type): [string, string] => [type, MARKETPLACE_TYPE_LABELS[type]]),
          ]}
        />
        <FilterSelect
          id="market-budget"
          label="Budget"
          value={filter.budget}
          onChange={(budget) => update({ budget })}
          options={BUDGET_BANDS.map((band): [string, string] => [band.value, band.label])}
        />
        <FilterSelect
          id="market-schedule"
          label="Schedule"
          value={filter.priceType}
          onChange={(priceType) => update({ priceType })}
          options={[
            ['', 'Any schedule'],
            ...PRICE_TYPES.map((type): [string, string] => [type, PRICE_TYPE_LABELS[type]]),
          ]}
        />
        <FilterSelect
          id="market-timeframe"
          label="Timeframe"
          value={filter.timeframe}
          onChange={(timeframe) => update({ timeframe })}
          options={[['', 'Any timeframe'], ...TIMEFRAMES.map((item): [string, string] => [item, item])]}
        />
      </div>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Categories</legend>
        {MARKETPLACE_CATEGORIES.map((category) => (
          <button
            key={category}
            type="button"
            aria-pressed={filter.category === category}
            onClick={() => update({ category: filter.category === category ? '' : category })}
            className={cn(
              'rounded-full border px-3 py-1 text-sm',
              filter.category === category
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:bg-surface-2',
            )}
          >
            {category}
          </button>
        ))}
      </fieldset>
      {projects.isLoading ? <Spinner label="Loading projects" /> : null}
      {data && data.projects.length === 0 ? (
        <p className="text-sm text-muted">
          {filter.mine ? 'You have not posted a project yet.' : 'No projects match these filters.'}
        </p>
      ) : null}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {data?.projects.map((project) => (
          <li key={project.id}>
            <ProjectCard project={project} />
          </li>
        ))}
      </ul>
      {data && data.total > PAGE_SIZE ? (
        <nav aria-label="Pages" className="flex items-center justify-center gap-3 text-sm">
          <Button
            variant="secondary"
            size="sm"
            disabled={filter.page <= 1}
            onClick={() => setFilter((f) => ({ ...f, page: f.page - 1 }))}
          >
            Previous
          </Button>
          <span>
            Page {filter.page} of {pages}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={filter.page >= pages}
            onClick={() => setFilter((f) => ({ ...f, page: f.page + 1 }))}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
};

const FilterSelect = ({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: [string, string][];
}) => (
  <div>
    <Label htmlFor={id}>{label}</Label>
    <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      {options.map(([optionValue, optionLabel]) => (
        <option key={optionValue} value={optionValue}>
          {optionLabel}
        </option>
      ))}
    </Select>
  </div>
);
