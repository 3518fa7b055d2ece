import type { TConnection } from '@switchboard/core';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card';

const NAMES = { 'website-widget': 'Website Widget', 'website-block': 'Website Block' } as const;

/** A sub-account without a connection of this type: the way to create one. */
export const NoConnection = ({ connectId, type }: { connectId: string; type: TConnection['type'] }) => (
  <div className="mx-auto max-w-xl">
    <Card className="text-center">
      <h1 className="text-xl font-semibold">{NAMES[type]}</h1>
      <p className="mt-2 text-sm text-muted">
        No {NAMES[type].toLowerCase()} yet. Add an agent to this channel to design it and get its embed code.
      </p>
      <Link
        to={`/${connectId}/add-agent?channel=${type}`}
        className="mt-4 inline-flex h-10 items-center rounded-lg bg-primary px-4 text-sm font-medium text-primary-foreground"
      >
        Add agent
      </Link>
    </Card>
  </div>
);
