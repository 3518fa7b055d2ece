import { Link } from 'react-router';
import { FieldError, Label, Select } from '../../components/ui/input';
import { useBuilds } from './use-connection';

/**
 * "Agent": the sub-account's agents to put on a channel, with the spec's empty and loading texts
 * and a way to create one when there is none.
 */
export const AgentSelect = ({
  id,
  subaccountId,
  value,
  onChange,
  error,
}: {
  id: string;
  subaccountId: string;
  value: string;
  onChange: (buildId: string) => void;
  error?: string | null;
}) => {
  const builds = useBuilds(subaccountId);
  const list = builds.data?.builds ?? [];
  const errorId = `${id}-error`;
  return (
    <div>
      <Label htmlFor={id}>Agent</Label>
      <Select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={builds.isLoading || list.length === 0}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        <option value="">
          {builds.isLoading
            ? 'Loading builds...'
            : list.length === 0
              ? 'No builds available. Please create a build first.'
              : 'Select an agent'}
        </option>
        {list.map((build) => (
          <option key={build.buildId} value={build.buildId}>
            {build.aiName}
          </option>
        ))}
      </Select>
      <FieldError id={errorId}>{error ?? null}</FieldError>
      {!builds.isLoading && list.length === 0 ? (
        <Link to="/agents/create" className="mt-2 inline-block text-sm underline">
          Create an agent
        </Link>
      ) : null}
    </div>
  );
};
