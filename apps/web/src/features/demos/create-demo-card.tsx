import {
  DEMO_DEFAULT_REQUEST_LIMIT,
  demoTierFor,
  type TDemo,
  type TDemoType,
  upgradePathFor,
  ZCreateDemoRequest,
} from '@switchboard/core';
import { Lock } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { usePlanCapabilities } from '../billing/billing-api';
import type { BuildOption, useDemoMutations } from './api';
import { TYPE_OPTIONS } from './fields';

/** Turns an agent into a demo: agent, type, name and request limit. */
export const CreateDemoCard = ({
  builds,
  buildsLoading,
  create,
  onCreated,
  canEdit,
}: {
  builds: BuildOption[];
  buildsLoading: boolean;
  create: ReturnType<typeof useDemoMutations>['create'];
  onCreated: (demo: TDemo) => void;
  canEdit: boolean;
}) => {
  const [buildId, setBuildId] = useState('');
  const [type, setType] = useState<TDemoType>('website');
  const [name, setName] = useState('');
  const [limit, setLimit] = useState(String(DEMO_DEFAULT_REQUEST_LIMIT));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const chosenBuild = buildId || builds[0]?.buildId || '';
  const capabilities = usePlanCapabilities();
  const allowed = (value: TDemoType) => !capabilities || capabilities.demos[demoTierFor({ type: value })];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const build = builds.find((item) => item.buildId === chosenBuild);
    const body = {
      name: name.trim() || `${build?.name ?? 'Agent'} demo`,
      type,
      buildId: chosenBuild,
      requestLimit: Number(limit),
    };
    const parsed = ZCreateDemoRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    try {
      const demo = await create.mutateAsync(body);
      toast.success('Demo created');
      setName('');
      onCreated(demo);
    } catch (error) {
      if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
      toast.error(error instanceof Error ? error.message : 'The demo could not be created');
    }
  };

  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold">Create a demo</h2>
      <form onSubmit={submit} className="grid gap-3 md:grid-cols-2">
        <div>
          <Label htmlFor="demo-agent">Agent</Label>
          {buildsLoading ? (
            <p className="text-sm text-muted">Loading builds...</p>
          ) : builds.length === 0 ? (
            <p className="text-sm text-muted">No builds available. Please create a build first.</p>
          ) : (
            <Select id="demo-agent" value={chosenBuild} onChange={(event) => setBuildId(event.target.value)}>
              {builds.map((build) => (
                <option key={build.buildId} value={build.buildId}>
                  {build.name}
                </option>
              ))}
            </Select>
          )}
          <FieldError>{errors.buildId ?? null}</FieldError>
        </div>
        <div>
          <Label htmlFor="demo-name">Demo name</Label>
          <Input
            id="demo-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Client name demo"
          />
          <FieldError>{errors.name ?? null}</FieldError>
        </div>
        <fieldset className="md:col-span-2">
          <legend className="mb-1 text-sm font-medium">Type</legend>
          <div className="flex flex-wrap gap-2">
            {TYPE_OPTIONS.map((option) => (
              <label
                key={option.value}
                className={`cursor-pointer rounded-lg border px-3 py-2 text-sm ${type === option.value ? 'border-primary bg-surface-2' : 'border-border'}`}
              >
                <input
                  type="radio"
                  name="demo-type"
                  value={option.value}
                  checked={type === option.value}
                  onChange={() => setType(option.value)}
                  className="mr-2"
                />
                {option.label}
                {allowed(option.value) ? null : (
                  <span className="ml-2 inline-flex items-center gap-1 text-xs text-muted">
                    <Lock size={12} aria-hidden="true" /> Advanced
                  </span>
                )}
              </label>
            ))}
          </div>
          {allowed(type) ? null : (
            <p role="note" className="mt-2 text-sm">
              SMS, Facebook and Instagram demos are advanced demos, included from the Growth plan.{' '}
              <Link
                to={upgradePathFor('advanced_demos')}
                className="font-medium underline decoration-primary decoration-2"
              >
                Upgrade to Unlock
              </Link>
            </p>
          )}
        </fieldset>
        <div>
          <Label htmlFor="demo-limit">Request limit</Label>
          <Input
            id="demo-limit"
            type="number"
            min={1}
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
          />
          <FieldError>{errors.requestLimit ?? null}</FieldError>
        </div>
        <div className="flex items-end">
          <Button type="submit" disabled={!canEdit || create.isPending || builds.length === 0 || !allowed(type)}>
            {create.isPending ? 'Creating...' : 'Create demo'}
          </Button>
        </div>
      </form>
    </Card>
  );
};
