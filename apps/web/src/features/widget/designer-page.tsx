import type { TConnection } from '@switchboard/core';
import { Save } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useNavigate, useOutletContext, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';
import type { ConnectContext } from '../connection/connection-layout';
import { ConnectionHeader, ConnectionState } from './connection-header';
import { EmbedCode } from './embed-code';
import { NoConnection } from './no-connection';
import { LivePreview } from './preview';
import { SettingsPanel } from './settings-panel';
import {
  useConnection,
  useDeleteConnection,
  useDeploy,
  useSaveSettings,
  useSubaccountConnections,
} from './use-connection';
import { useDesigner } from './use-designer';

const PATHS = { 'website-widget': 'website-widget', 'website-block': 'website-block' } as const;

/** /{connectId}/website-widget and /{connectId}/website-block: a connection id opens its designer; a sub-account id finds its connection. */
export const DesignerRoute = ({ type }: { type: TConnection['type'] }) => {
  const { connectId = '' } = useParams();
  const context = useOutletContext<ConnectContext>();
  const isConnection = connectId.startsWith('con_');
  const connection = useConnection(connectId);
  const list = useSubaccountConnections(context.subaccountId, type, !isConnection);

  if (!isConnection) {
    if (list.isLoading) return <ConnectionState loading found />;
    const first = list.data?.connections[0];
    if (first) return <Navigate to={`/${first.connectionId}/${PATHS[type]}`} replace />;
    return <NoConnection connectId={connectId} type={type} />;
  }
  if (connection.isLoading || !connection.data) return <ConnectionState loading={connection.isLoading} found={false} />;
  if (connection.data.type !== type) return <Navigate to={`/${connectId}/${PATHS[connection.data.type]}`} replace />;
  return (
    <Designer
      key={connection.data.connectionId}
      connection={connection.data}
      role={context.role}
      subaccountId={context.subaccountId}
    />
  );
};

const Designer = ({
  connection,
  role,
  subaccountId,
}: {
  connection: TConnection;
  role: ConnectContext['role'];
  subaccountId: string;
}) => {
  const navigate = useNavigate();
  const designer = useDesigner(connection);
  const save = useSaveSettings(connection.connectionId);
  const deploy = useDeploy(connection.connectionId);
  const remove = useDeleteConnection(connection.connectionId);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const viewer = role === 'viewer';
  const block = connection.type === 'website-block';
  const needsRedeploy = connection.needsRedeploy || designer.unsaved;

  const saveNow = () => save.mutateAsync(designer.draft);
  const deployNow = async () => {
    if (designer.unsaved) await saveNow();
    await deploy.mutateAsync();
  };

  return (
    <div className="mx-auto max-w-7xl">
      <ConnectionHeader connection={connection}>
        <div className="flex flex-col items-end gap-1">
          <div className="flex items-center gap-2">
            {designer.unsaved ? (
              <span className="text-sm text-muted" role="status">
                Unsaved changes
              </span>
            ) : null}
            <span title={viewer ? 'Viewers cannot save changes' : undefined} tabIndex={viewer ? 0 : undefined}>
              <Button
                variant="secondary"
                onClick={() => void saveNow().catch(() => undefined)}
                disabled={!designer.unsaved || save.isPending || viewer}
              >
                <Save size={16} aria-hidden="true" /> {save.isPending ? 'Saving...' : 'Save'}
              </Button>
            </span>
            <Button
              onClick={() => void deployNow().catch(() => undefined)}
              disabled={deploy.isPending || save.isPending || viewer}
            >
              {deploy.isPending ? 'Deploying...' : needsRedeploy ? 'Redeploy Required' : 'Deploy'}
            </Button>
          </div>
          {viewer ? <p className="text-xs text-muted">Viewers cannot save changes</p> : null}
        </div>
      </ConnectionHeader>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_400px]">
        <div className="min-w-0 space-y-6">
          <section aria-labelledby="live-preview-heading">
            <h2 id="live-preview-heading" className="mb-2 font-semibold">
              Live Preview
            </h2>
            <LivePreview
              settings={designer.draft}
              connectionId={connection.connectionId}
              block={block}
              readOnly={viewer}
            />
          </section>
          <EmbedCode connection={connection} admin={role === 'admin'} />
        </div>
        <Card className="h-fit">
          <h2 className="mb-4 font-semibold">Settings</h2>
          <SettingsPanel
            connection={connection}
            designer={designer}
            block={block}
            onDeploy={() => void deployNow().catch(() => undefined)}
            deploying={deploy.isPending}
            readOnly={viewer}
          />
        </Card>
      </div>
      <Card className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-semibold">Delete this {block ? 'website block' : 'widget'}</h2>
          <p className="text-sm text-muted">Its embed code stops working at once. Past conversations are kept.</p>
        </div>
        <span title={viewer ? 'Viewers cannot delete widgets' : undefined} tabIndex={viewer ? 0 : undefined}>
          <Button variant="danger" onClick={() => setConfirmDelete(true)} disabled={viewer}>
            Delete {block ? 'website block' : 'widget'}
          </Button>
        </span>
      </Card>
      <ConfirmDeleteDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        busy={remove.isPending}
        title={`Delete ${block ? 'website block' : 'widget'}`}
        description={`This permanently deletes "${connection.connectionName}". Sites that embed it stop showing it.`}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirmDelete(false);
              navigate(`/${subaccountId}/${PATHS[connection.type]}`, { replace: true });
            },
          })
        }
      />
    </div>
  );
};
