import type { TMcpServer } from '@switchboard/core';
import { Plug } from 'lucide-react';
import { useState } from 'react';
import { Card, Spinner } from '../../components/ui/card';
import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';
import { Dialog } from '../../components/ui/dialog';
import { toast } from '../../lib/toast';
import { useAgents } from '../agents/api';
import { IntegrationsTabs } from '../integrations/integrations-tabs';
import { useSession } from '../session/session';
import { useMcpServerMutations, useMcpServers } from './api';
import { ServerCard } from './server-card';
import { ServerForm } from './server-form';

/**
 * /integrations/mcp: the sub-account's MCP servers. Add one (its tools are discovered at once),
 * see its state and tools, discover again, edit, delete, and enable a tool on an agent.
 */
export const McpServersPage = () => {
  const { currentSubaccount } = useSession();
  const subaccountId = currentSubaccount?.id ?? null;
  const canEdit = Boolean(currentSubaccount) && currentSubaccount?.role !== 'viewer';
  const servers = useMcpServers(subaccountId);
  const agents = useAgents(subaccountId);
  const { create, update, rediscover, remove } = useMcpServerMutations(subaccountId);
  const [editing, setEditing] = useState<TMcpServer | null>(null);
  const [deleting, setDeleting] = useState<TMcpServer | null>(null);

  const announce = (server: TMcpServer) => {
    if (server.status === 'connected') {
      toast.success(`${server.name}: ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'} found`);
    } else toast.error(`${server.name}: ${server.lastError ?? 'the server could not be reached'}`);
  };

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 p-4 md:p-6">
      <div className="flex items-start gap-3">
        <Plug size={28} className="mt-0.5 shrink-0 text-primary" aria-hidden="true" />
        <div>
          <h1 className="text-2xl font-semibold">MCP servers</h1>
          <p className="text-sm text-muted">
            Connect any MCP server (Streamable HTTP) and let your agents call its tools. Add headers when the server
            needs authentication.
          </p>
        </div>
        <IntegrationsTabs />
      </div>

      {canEdit ? (
        <Card className="space-y-3">
          <h2 className="font-semibold">Add an MCP server</h2>
          <ServerForm
            label="Add an MCP server"
            submitLabel="Add server"
            busy={create.isPending}
            onSubmit={async (values) => announce(await create.mutateAsync(values))}
          />
        </Card>
      ) : null}

      <section className="space-y-3" aria-labelledby="mcp-servers-heading">
        <h2 id="mcp-servers-heading" className="font-semibold">
          Servers
        </h2>
        {servers.isLoading ? <Spinner label="Loading MCP servers" /> : null}
        {servers.isError ? (
          <Card role="alert">
            <p className="text-danger">The MCP servers could not be loaded: {servers.error.message}</p>
          </Card>
        ) : null}
        {servers.data && servers.data.servers.length === 0 ? (
          <Card className="border-dashed text-sm">
            <p className="font-medium">No MCP servers yet</p>
            <p className="text-muted">Add a server above; its tools appear here and on your agents.</p>
          </Card>
        ) : null}
        {servers.data?.servers.map((server) => (
          <ServerCard
            key={server.id}
            server={server}
            agents={agents.data?.agents ?? []}
            canEdit={canEdit}
            rediscovering={rediscover.isPending && rediscover.variables === server.id}
            onRediscover={() => rediscover.mutate(server.id, { onSuccess: announce })}
            onEdit={() => setEditing(server)}
            onDelete={() => setDeleting(server)}
          />
        ))}
      </section>

      <Dialog
        open={Boolean(editing)}
        onOpenChange={(open) => (open ? undefined : setEditing(null))}
        title={`Edit ${editing?.name ?? 'MCP server'}`}
        description="A new URL or new headers connect again and discover the tools."
        className="max-w-2xl"
      >
        {editing ? (
          <ServerForm
            key={editing.id}
            server={editing}
            label={`Edit ${editing.name}`}
            submitLabel="Save"
            busy={update.isPending}
            onCancel={() => setEditing(null)}
            onSubmit={async (values) => {
              const saved = await update.mutateAsync({ id: editing.id, body: values });
              setEditing(null);
              announce(saved);
            }}
          />
        ) : null}
      </Dialog>

      <ConfirmDeleteDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? 'MCP server'}?`}
        description="Agents can no longer call its tools."
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success(`${deleting.name} deleted`);
              setDeleting(null);
            },
          });
        }}
      />
    </div>
  );
};
