import { Copy, Link2, Link2Off } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';
import { shareRun, unshareRun } from './api';

/** The share link of a run's branded report: create it, copy it, stop sharing. */
export const ShareReport = ({ runId }: { runId: string }) => {
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const share = async () => {
    setBusy(true);
    try {
      const { path } = await shareRun(runId);
      setUrl(`${window.location.origin}${path}`);
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    setBusy(true);
    try {
      await unshareRun(runId);
      setUrl(null);
      toast.success('The share link no longer opens the report');
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied to clipboard!');
    } catch {
      toast.error(`Copy failed. Here's the link: ${url}`, 10_000);
    }
  };

  if (!url) {
    return (
      <Button variant="secondary" onClick={share} disabled={busy}>
        <Link2 size={16} aria-hidden="true" /> Share link
      </Button>
    );
  }
  return (
    <div className="flex w-full flex-wrap items-center gap-2 rounded-lg border border-border p-2">
      <label htmlFor="share-url" className="text-sm font-medium">
        Share link
      </label>
      <input
        id="share-url"
        readOnly
        value={url}
        className="min-w-0 flex-1 rounded-md border border-border bg-background px-2 py-1 font-mono text-xs"
        onFocus={(event) => event.currentTarget.select()}
      />
      <Button variant="secondary" size="sm" onClick={copy}>
        <Copy size={14} aria-hidden="true" /> Copy link
      </Button>
      <Button variant="ghost" size="sm" onClick={stop} disabled={busy}>
        <Link2Off size={14} aria-hidden="true" /> Stop sharing
      </Button>
    </div>
  );
};
