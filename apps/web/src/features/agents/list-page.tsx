import { AGENT_TYPE_LABELS, OFFLINE_MODEL_LABEL, type TAgent } from '@switchboard/core';
import { Bot, Copy, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { usePageHeader } from '../workspace/page-header';
import { useAgentMutations, useAgents } from './api';
import { DeleteAgentDialog } from './delete-agent-dialog';

const modelLabel = (agent: TAgent) => (agent.provider === 'offline' ? OFFLINE_MODEL_LABEL : agent.model);

/** /agents (current sub-account) and /subaccounts/{id}/agents: open, duplicate and delete agents. */
export const AgentListPage = () => {
  const params = useParams();
  const { currentSubaccount, subaccounts } = useSession();
  const subaccountId = params.subaccountId ?? currentSubaccount?.id ?? null;
  const subaccount = subaccounts.find((item) => item.id === subaccountId) ?? null;
  const role = subaccount?.role ?? currentSubaccount?.role;
  // Creating, duplicating and deleting agents is the agency's (never a viewer's or a client's).
  const canEdit = role === 'member' || role === 'admin';
  const agents = useAgents(subaccountId);
  const mutations = useAgentMutations();
  const [deleting, setDeleting] = useState<TAgent | null>(null);
  usePageHeader({ back: params.subaccountId ? '/agents' : undefined });

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 p-4 md:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Agents</h1>
          <p className="text-sm text-muted">{subaccount ? `Agents of ${subaccount.name}` : 'Your agents'}</p>
        </div>
        {canEdit ? (
          <Link
            to="/agents/create"
            className="inline-flex h-10 items-center gap-2 rounded-lg bg-primary px-4 text-sm font-medium text-primary-foreground"
          >
            <Plus size={16} aria-hidden="true" /> New Agent
          </Link>
        ) : null}
      </div>
      {agents.isLoading ? <Spinner label="Loading agents" /> : null}
      {agents.data && agents.data.agents.length === 0 ? (
        <Card className="text-center">
          <p className="text-muted">No agents yet.</p>
          {canEdit ? (
            <Link to="/agents/create" className="mt-2 inline-block underline decoration-primary decoration-2">
              Create your first agent
            </Link>
          ) : null}
        </Card>
      ) : null}
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {agents.data?.agents.map((agent) => (
          <li key={agent.id}>
            <Card className="flex h-full flex-col gap-3">
              <div className="flex items-start gap-3">
                <span className="rounded-lg bg-surface-2 p-2" aria-hidden="true">
                  <Bot size={20} />
                </span>
                <div className="min-w-0 flex-1">
                  <Link to={`/agents/${agent.id}`} className="block truncate font-semibold hover:underline">
                    {agent.name}
                  </Link>
                  <p className="text-xs text-muted">
                    {AGENT_TYPE_LABELS[agent.type]} · {modelLabel(agent)}
                  </p>
                </div>
              </div>
              <p className="line-clamp-2 text-sm break-words text-muted">
                {agent.systemPrompt || 'No instructions yet.'}
              </p>
              <div className="mt-auto flex flex-wrap gap-2">
                <Link
                  to={`/agents/${agent.id}`}
                  className="inline-flex h-8 items-center rounded-lg border border-border px-3 text-sm hover:bg-surface-2"
                  aria-label={`Open ${agent.name}`}
                >
                  Open
                </Link>
                {canEdit ? (
                  <>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={mutations.duplicate.isPending}
                      onClick={() =>
                        mutations.duplicate.mutate(agent.id, { onSuccess: () => toast.success('Agent duplicated') })
                      }
                      aria-label={`Duplicate ${agent.name}`}
                    >
                      <Copy size={14} aria-hidden="true" /> Duplicate
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setDeleting(agent)}
                      aria-label={`Delete ${agent.name}`}
                    >
                      <Trash2 size={14} aria-hidden="true" /> Delete
                    </Button>
                  </>
                ) : null}
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <DeleteAgentDialog
        name={deleting?.name ?? ''}
        open={Boolean(deleting)}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        busy={mutations.remove.isPending}
        onConfirm={() =>
          deleting &&
          mutations.remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Agent deleted');
              setDeleting(null);
            },
          })
        }
      />
    </div>
  );
};
