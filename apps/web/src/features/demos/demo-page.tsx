import type { TDemo } from '@switchboard/core';
import { useState } from 'react';
import { Spinner } from '../../components/ui/card';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { useBuilds, useDemoMutations, useDemos } from './api';
import { CreateDemoCard } from './create-demo-card';
import { DeleteDemoDialog } from './delete-dialog';
import { DemoEditor } from './demo-editor';
import { DemoListItem } from './demo-list-item';

/** /demo: create demos from agents, edit them with a live preview, share, limit and delete them. */
export const DemoPage = () => {
  const { currentSubaccount } = useSession();
  const subaccountId = currentSubaccount?.id ?? null;
  const canEdit = currentSubaccount?.role !== 'viewer';
  const builds = useBuilds(subaccountId);
  const demos = useDemos(subaccountId);
  const mutations = useDemoMutations(subaccountId);
  const [editing, setEditing] = useState<TDemo | null>(null);
  const [deleting, setDeleting] = useState<TDemo | null>(null);
  const buildList = builds.data ?? [];
  const nameOf = (demo: TDemo) =>
    buildList.find((build) => build.buildId === demo.buildId)?.name ?? (demo.buildId ? 'Agent' : 'Agent deleted');

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 p-4 md:p-6">
      <p className="text-sm text-muted">
        Turn an agent into a demo, send your client the link, and let them chat with it on their own website, in a
        phone, a social chat or a full-page chat.
      </p>
      <CreateDemoCard
        builds={buildList}
        buildsLoading={builds.isLoading}
        create={mutations.create}
        onCreated={setEditing}
        canEdit={canEdit}
      />
      <section aria-labelledby="demo-list-heading" className="space-y-3">
        <h2 id="demo-list-heading" className="text-lg font-semibold">
          Your demos
        </h2>
        {demos.isLoading ? <Spinner label="Loading demos" /> : null}
        {demos.data && demos.data.demos.length === 0 ? (
          <p className="text-sm text-muted">No demos yet. Create one from an agent above.</p>
        ) : null}
        {demos.data?.demos.map((demo) => (
          <DemoListItem
            key={demo.demoId}
            demo={demo}
            agentName={nameOf(demo)}
            canEdit={canEdit}
            mutations={mutations}
            onEdit={() => setEditing(demo)}
            onDelete={() => setDeleting(demo)}
          />
        ))}
      </section>
      {editing ? (
        <DemoEditor
          key={editing.demoId}
          demo={editing}
          builds={buildList}
          canEdit={canEdit}
          onClose={() => setEditing(null)}
          onSave={(body) => mutations.update.mutateAsync({ demoId: editing.demoId, body })}
        />
      ) : null}
      <DeleteDemoDialog
        name={deleting?.name ?? ''}
        open={Boolean(deleting)}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        busy={mutations.remove.isPending}
        onConfirm={async () => {
          if (!deleting) return;
          await mutations.remove.mutateAsync(deleting.demoId);
          toast.success('Demo deleted');
          setDeleting(null);
        }}
      />
    </div>
  );
};
