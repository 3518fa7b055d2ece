import type { TConnection } from '@switchboard/core';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';

/** The widget connection layout's states (spec 2.5): loading, not found, or the header. */
export const ConnectionState = ({ loading, found }: { loading: boolean; found: boolean }) => {
  const navigate = useNavigate();
  if (loading)
    return (
      <div className="flex min-h-[40vh] items-center justify-center gap-2" role="status">
        <Spinner label="Loading" />
        <span>Loading widget settings...</span>
      </div>
    );
  if (!found)
    return (
      <div className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-center">
        <h1 className="text-xl font-semibold">Widget not found</h1>
        <Button variant="secondary" onClick={() => navigate(-1)}>
          Go Back
        </Button>
      </div>
    );
  return null;
};

export const ConnectionHeader = ({ connection, children }: { connection: TConnection; children?: React.ReactNode }) => (
  <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
    <div className="min-w-0">
      <h1 className="truncate text-2xl font-semibold">{connection.connectionName}</h1>
      <p className="mt-1 text-sm text-muted">
        Created {new Date(connection.createdAt).toLocaleDateString()} · ID: {connection.connectionId}
      </p>
      <Link to={`/${connection.connectionId}/conversations`} className="mt-1 inline-block text-sm underline">
        Conversations inbox
      </Link>
    </div>
    {children}
  </div>
);
