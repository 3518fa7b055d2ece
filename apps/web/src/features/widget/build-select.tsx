import { Label, Select } from '../../components/ui/input';
import { useBuilds, useUpdateBuild } from './use-connection';

/** Choose Build: the agent that answers on this widget. */
export const BuildSelect = ({
  connectionId,
  subaccountId,
  buildId,
  disabled,
}: {
  connectionId: string;
  subaccountId: string;
  buildId: string | null;
  disabled?: boolean;
}) => {
  const builds = useBuilds(subaccountId);
  const update = useUpdateBuild(connectionId);
  const list = builds.data?.builds ?? [];
  const status = builds.isLoading
    ? 'Loading builds...'
    : update.isPending
      ? 'Updating build...'
      : list.length === 0
        ? 'No builds available. Please create a build first.'
        : null;
  return (
    <div>
      <Label htmlFor="choose-build">Choose Build</Label>
      <Select
        id="choose-build"
        value={status ? '' : (buildId ?? '')}
        disabled={disabled || Boolean(status)}
        onChange={(event) => event.target.value && update.mutate(event.target.value)}
      >
        {status ? <option value="">{status}</option> : null}
        {!status && !buildId ? <option value="">Select a build</option> : null}
        {list.map((build) => (
          <option key={build.buildId} value={build.buildId}>
            {build.aiName}
          </option>
        ))}
      </Select>
    </div>
  );
};
