import {
  modelToolName,
  type TAgent,
  type TDiscoveredTool,
  type TMcpServer,
  type TMcpServerStatus,
} from '@switchboard/core';
import { Pencil, RefreshCw, Trash2, Wrench } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { enabledToolOf, useEnableOnAgent } from './api';

const STATUS_LABELS: Record<TMcpServerStatus, string> = {
  connected: 'Connected',
  failed: 'Failed',
  auth_required: 'Authentication required',
};

const STATUS_DOTS: Record<TMcpServerStatus, string> = {
  connected: 'bg-green-600',
  failed: 'bg-danger',
  auth_required: 'bg-amber-500',
};

export const McpStatusBadge = ({ status }: { status: TMcpServerStatus }) => (
  <span
    data-testid="mcp-status"
    data-status={status}
    className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-border px-2 py-0.5 text-xs font-medium"
  >
    <span aria-hidden="true" className={cn('inline-block h-2 w-2 rounded-full', STATUS_DOTS[status])} />
    {STATUS_LABELS[status]}
  </span>
);

/** One discovered tool, with "Enable on agent" (until the agent page lists app tools itself). */
const ToolRow = ({
  server,
  tool,
  agents,
  canEdit,
}: {
  server: TMcpServer;
  tool: TDiscoveredTool;
  agents: TAgent[];
  canEdit: boolean;
}) => {
  const id = useId();
  const enable = useEnableOnAgent();
  const [agentId, setAgentId] = useState('');
  const chosen = agentId || agents[0]?.id || '';
  const chosenAgent = agents.find((agent) => agent.id === chosen);
  const already = Boolean(
    chosenAgent?.enabledTools.some((enabled) => enabled.ownerId === server.id && enabled.slug === tool.slug),
  );
  const fields = Object.keys(tool.schema.properties);
  return (
    <li className="space-y-2 py-3" data-testid="mcp-tool">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <code className="font-mono text-sm font-semibold break-all">{modelToolName(tool.slug)}</code>
        {fields.length ? <span className="text-xs text-muted">Inputs: {fields.join(', ')}</span> : null}
      </div>
      {tool.schema.description ? <p className="text-sm text-muted">{tool.schema.description}</p> : null}
      {canEdit && agents.length ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 sm:max-w-64">
            <Label htmlFor={`${id}-agent`} className="text-xs">
              Enable {modelToolName(tool.slug)} on agent
            </Label>
            <Select id={`${id}-agent`} value={chosen} onChange={(event) => setAgentId(event.target.value)}>
              {agents.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </Select>
          </div>
          <Button
            variant="secondary"
            disabled={!chosen || already || enable.isPending}
            onClick={() =>
              enable.mutate(
                { agentId: chosen, tool: enabledToolOf(server.id, tool) },
                {
                  onSuccess: (agent) => toast.success(`${modelToolName(tool.slug)} is enabled on ${agent.name}`),
                  onError: (error) =>
                    toast.error(error instanceof ApiError ? error.message : 'The tool could not be enabled'),
                },
              )
            }
          >
            {already ? 'Enabled' : 'Enable on agent'}
          </Button>
        </div>
      ) : null}
    </li>
  );
};

export const ServerCard = ({
  server,
  agents,
  canEdit,
  rediscovering,
  onRediscover,
  onEdit,
  onDelete,
}: {
  server: TMcpServer;
  agents: TAgent[];
  canEdit: boolean;
  rediscovering: boolean;
  onRediscover: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) => (
  <Card className="space-y-3" data-testid="mcp-server" aria-labelledby={`mcp-${server.id}-name`}>
    <div className="flex flex-wrap items-start gap-2">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={`mcp-${server.id}-name`} className="font-semibold break-all">
            {server.name}
          </h3>
          <McpStatusBadge status={server.status} />
        </div>
        <p className="font-mono text-xs break-all text-muted">{server.url}</p>
        {server.headers.length ? (
          <p className="text-xs text-muted">
            Headers:{' '}
            {server.headers.map((header) => (
              <code key={header.name} className="mr-2 font-mono">
                {header.name}: ••••{header.valueTail}
              </code>
            ))}
          </p>
        ) : null}
      </div>
      {canEdit ? (
        <div className="flex flex-wrap gap-1">
          <Button variant="secondary" size="sm" onClick={onRediscover} disabled={rediscovering}>
            <RefreshCw size={14} aria-hidden="true" /> {rediscovering ? 'Discovering…' : 'Rediscover'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${server.name}`}>
            <Pencil size={14} aria-hidden="true" /> Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${server.name}`}>
            <Trash2 size={14} aria-hidden="true" /> Delete
          </Button>
        </div>
      ) : null}
    </div>
    {server.lastError ? (
      <p className="rounded-lg border border-danger/40 p-2 text-sm text-danger" role="status">
        {server.lastError}
      </p>
    ) : null}
    <div>
      <h4 className="flex items-center gap-1.5 text-sm font-medium">
        <Wrench size={14} aria-hidden="true" /> Tools ({server.tools.length})
      </h4>
      {server.tools.length ? (
        <ul className="divide-y divide-border" aria-label={`Tools of ${server.name}`}>
          {server.tools.map((tool) => (
            <ToolRow key={tool.slug} server={server} tool={tool} agents={agents} canEdit={canEdit} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted">No tools discovered yet.</p>
      )}
    </div>
  </Card>
);
