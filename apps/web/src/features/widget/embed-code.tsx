import type { TConnection } from '@switchboard/core';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';

/** The embed code of a connection: the script tag (recommended) or the iframe variant. */
export const embedCodes = (connection: TConnection, origin = window.location.origin) => {
  const { widgetId, settings } = connection;
  return {
    script: `<script src="${origin}/widget/${widgetId}/widget.js" async fetchpriority="high"></script>`,
    iframe: `<iframe src="${origin}/widget/${widgetId}" title="${settings.widgetTitle.replace(/"/g, '&quot;')}" width="${settings.width}" height="${settings.height}" style="border:0;border-radius:12px;max-width:100%" allow="clipboard-write"></iframe>`,
  };
};

export const EmbedCode = ({ connection }: { connection: TConnection }) => {
  const [variant, setVariant] = useState<'script' | 'iframe'>('script');
  const code = embedCodes(connection)[variant];
  const block = connection.type === 'website-block';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success('Code copied to clipboard!');
    } catch {
      toast.error('Copy failed. Select the code and copy it by hand.', 10_000);
    }
  };
  return (
    <Card>
      <h2 className="font-semibold">Embed code</h2>
      <p className="mt-1 text-sm text-muted">
        {block
          ? 'Paste it where the chat should appear in your page. Changes reach your site after Deploy.'
          : 'Paste it into the <head> of every page of your site (it loads without blocking the page). Changes reach your site after Deploy.'}
      </p>
      <div role="tablist" aria-label="Embed variant" className="mt-3 flex gap-2">
        {(['script', 'iframe'] as const).map((item) => (
          <button
            key={item}
            type="button"
            role="tab"
            aria-selected={variant === item}
            onClick={() => setVariant(item)}
            className={cn(
              'h-8 rounded-lg border px-3 text-sm',
              variant === item
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:bg-surface-2',
            )}
          >
            {item === 'script' ? 'Script tag' : 'Iframe'}
          </button>
        ))}
      </div>
      <textarea
        readOnly
        aria-label="Embed code"
        value={code}
        rows={variant === 'script' ? 2 : 4}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-3 w-full resize-none rounded-lg border border-border bg-surface-2 p-3 font-mono text-xs text-foreground"
      />
      <Button className="mt-3" variant="secondary" onClick={() => void copy()}>
        <Copy size={16} aria-hidden="true" /> Copy code
      </Button>
    </Card>
  );
};
