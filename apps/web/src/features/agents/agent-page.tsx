import { AGENT_TYPE_LABELS } from '@switchboard/core';
import { Copy, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { toast } from '../../lib/toast';
import { usePortalContext } from '../portal/api';
import { useSession } from '../session/session';
import { AgentForm } from './agent-form';
import { AgentPageHeader } from './agent-page-header';
import { useAgent, useAgentMutations } from './api';
import { AppToolsCard } from './app-tools-card';
import { DeleteAgentDialog } from './delete-agent-dialog';
import { KnowledgeCard } from './knowledge-card';
import { TestChat } from './test-chat';
import { ToolsEditor } from './tools-editor';

/** /agents/{agentId}: the agent's settings, knowledge and tools beside a streamed test chat. */
export const AgentPage = () => {
  const { agentId = '' } = useParams();
  const navigate = useNavigate();
  const agent = useAgent(agentId);
  const { subaccounts } = useSession();
  const mutations = useAgentMutations();
  const [deleting, setDeleting] = useState(false);
  const role = subaccounts.find((item) => item.id === agent.data?.subaccountId)?.role ?? 'viewer';
  const portal = usePortalContext(role === 'client' ? agent.data?.subaccountId : null);

  if (agent.isLoading) {
    return (
      <div className="p-6">
        <Spinner label="Loading agent" />
      </div>
    );
  }
  if (!agent.data) {
    return (
      <div className="mx-auto max-w-xl p-6">
        <Card className="space-y-2 text-center">
          <h1 className="text-xl font-semibold">Agent not found</h1>
          <p className="text-sm text-muted">The agent does not exist or was deleted.</p>
          <Link to="/agents" className="underline decoration-primary decoration-2">
            Back to agents
          </Link>
        </Card>
      </div>
    );
  }
  const data = agent.data;
  const staff = role === 'member' || role === 'admin';
  // A client edits (and tests) an agent only where the agency turned it on; never duplicates or deletes.
  const canEdit = staff || (role === 'client' && Boolean(portal.data?.access.editAgents));

  return (
    <div className="mx-auto w-full max-w-7xl p-4 md:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <AgentPageHeader
          name={data.name}
          agentId={data.id}
          type={AGENT_TYPE_LABELS[data.type]}
          subaccountId={data.subaccountId}
        />
        {staff ? (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={mutations.duplicate.isPending}
              onClick={() =>
                mutations.duplicate.mutate(data.id, {
                  onSuccess: (copy) => {
                    toast.success('Agent duplicated');
                    navigate(`/agents/${copy.id}`);
                  },
                })
              }
            >
              <Copy size={14} aria-hidden="true" /> Duplicate
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setDeleting(true)}>
              <Trash2 size={14} aria-hidden="true" /> Delete
            </Button>
          </div>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,420px)]">
        <div className="min-w-0 space-y-6">
          <AgentForm agent={data} canEdit={canEdit} />
          <KnowledgeCard agentId={data.id} canEdit={canEdit} />
          <ToolsEditor agent={data} canEdit={canEdit} />
          {role === 'client' ? null : <AppToolsCard agent={data} canEdit={canEdit} />}
        </div>
        <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
          <TestChat key={data.id} agent={data} canChat={canEdit} />
        </div>
      </div>
      <DeleteAgentDialog
        name={data.name}
        open={deleting}
        onOpenChange={setDeleting}
        busy={mutations.remove.isPending}
        onConfirm={() =>
          mutations.remove.mutate(data.id, {
            onSuccess: () => {
              toast.success('Agent deleted');
              navigate(`/subaccounts/${data.subaccountId}/agents`);
            },
          })
        }
      />
    </div>
  );
};
