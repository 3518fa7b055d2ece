import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';
import { fetchSecret } from './api';

/** The endpoint's signing secret, fetched only when an admin asks to see it. */
export const SecretReveal = ({ connectId, endpointId }: { connectId: string; endpointId: string }) => {
  const [secret, setSecret] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted">Signing secret</span>
      {secret ? (
        <>
          <code className="rounded bg-surface-2 px-2 py-0.5 break-all">{secret}</code>
          <Button
            size="sm"
            variant="ghost"
            onClick={async () => {
              await navigator.clipboard.writeText(secret);
              toast.success('Secret copied');
            }}
          >
            Copy
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSecret(null)}>
            Hide
          </Button>
        </>
      ) : (
        <Button
          size="sm"
          variant="ghost"
          disabled={loading}
          onClick={async () => {
            setLoading(true);
            try {
              setSecret((await fetchSecret(connectId, endpointId)).secret);
            } finally {
              setLoading(false);
            }
          }}
        >
          Show secret
        </Button>
      )}
    </div>
  );
};
