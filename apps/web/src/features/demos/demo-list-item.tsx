import type { TDemo } from '@switchboard/core';
import { Code, Copy, ExternalLink, Eye, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/input';
import type { useDemoMutations } from './api';
import { TYPE_OPTIONS } from './fields';
import { copyShareLink, copyText, embedSnippetFor, shareLinkFor } from './share';

/** One demo in the list: its request count, link, embed code and actions. */
export const DemoListItem = ({
  demo,
  agentName,
  canEdit,
  mutations,
  onEdit,
  onDelete,
}: {
  demo: TDemo;
  agentName: string;
  canEdit: boolean;
  mutations: ReturnType<typeof useDemoMutations>;
  onEdit: () => void;
  onDelete: () => void;
}) => {
  const [limit, setLimit] = useState(String(demo.requestLimit));
  const [showEmbed, setShowEmbed] = useState(false);
  const typeLabel = TYPE_OPTIONS.find((option) => option.value === demo.type)?.label ?? demo.type;
  const link = shareLinkFor(demo.demoId);
  const snippet = embedSnippetFor(demo.demoId, demo.settings.embedSettings.width, demo.settings.embedSettings.height);
  const limitId = `limit-${demo.demoId}`;
  const atLimit = demo.requestCount >= demo.requestLimit;

  return (
    <Card className="space-y-3" data-testid="demo-item">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate text-base font-semibold">{demo.name}</h3>
          <p className="text-sm text-muted">
            {typeLabel} · {agentName}
          </p>
        </div>
        <p
          className={`rounded-full px-3 py-1 text-xs font-medium ${atLimit ? 'bg-danger text-danger-foreground' : 'bg-surface-2'}`}
        >
          {demo.requestCount} / {demo.requestLimit} requests used
        </p>
      </div>
      <p className="truncate text-sm">
        <a
          href={link}
          target="_blank"
          rel="noreferrer"
          className="text-foreground underline decoration-primary underline-offset-2"
        >
          {link}
        </a>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={onEdit}>
          <Pencil size={14} aria-hidden="true" /> Edit
        </Button>
        <Button size="sm" variant="secondary" onClick={() => copyShareLink(demo.demoId)}>
          <Copy size={14} aria-hidden="true" /> Copy link
        </Button>
        <a
          href={link}
          target="_blank"
          rel="noreferrer"
          className="inline-flex h-8 items-center gap-2 rounded-lg border border-border px-3 text-sm hover:bg-surface-2"
        >
          <ExternalLink size={14} aria-hidden="true" /> Open
        </a>
        <a
          href={`/demo/${demo.demoId}/preview`}
          target="_blank"
          rel="noreferrer"
          className="inline-flex h-8 items-center gap-2 rounded-lg border border-border px-3 text-sm hover:bg-surface-2"
        >
          <Eye size={14} aria-hidden="true" /> Preview page
        </a>
        <Button size="sm" variant="secondary" onClick={() => setShowEmbed((value) => !value)} aria-expanded={showEmbed}>
          <Code size={14} aria-hidden="true" /> Embed code
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!canEdit || mutations.reset.isPending}
          onClick={() => mutations.reset.mutate(demo.demoId)}
        >
          <RotateCcw size={14} aria-hidden="true" /> Reset counter
        </Button>
        <Button size="sm" variant="ghost" disabled={!canEdit} onClick={onDelete} className="text-danger">
          <Trash2 size={14} aria-hidden="true" /> Delete
        </Button>
      </div>
      {showEmbed ? (
        <div className="space-y-2">
          <Label htmlFor={`embed-${demo.demoId}`}>Embed code</Label>
          <textarea
            id={`embed-${demo.demoId}`}
            readOnly
            value={snippet}
            className="h-20 w-full rounded-lg border border-border bg-surface-2 p-2 font-mono text-xs"
          />
          <Button size="sm" variant="secondary" onClick={() => copyText(snippet, 'Code copied to clipboard!')}>
            Copy code
          </Button>
        </div>
      ) : null}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          mutations.update.mutate({ demoId: demo.demoId, body: { requestLimit: Number(limit) } });
        }}
      >
        <div>
          <Label htmlFor={limitId}>Request limit</Label>
          <Input
            id={limitId}
            type="number"
            min={1}
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
            className="w-32"
          />
        </div>
        <Button
          size="sm"
          type="submit"
          variant="secondary"
          disabled={!canEdit || Number(limit) < 1 || Number(limit) === demo.requestLimit}
        >
          Save limit
        </Button>
      </form>
    </Card>
  );
};
