import {
  type FieldSchema,
  labelFromName,
  type TAgent,
  type TAppToolGroup,
  type TDiscoveredTool,
  type TEnabledTool,
} from '@switchboard/core';
import { AlertTriangle, Blocks } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { IntegrationStatusBadge, SandboxLabel } from '../integrations/status-badge';
import { useAgentMutations, useAppTools } from './api';
import { DynamicField } from './dynamic-field';

const keyOf = (tool: { source: string; ownerId: string; slug: string }) =>
  `${tool.source}:${tool.ownerId}:${tool.slug}`;
const SOURCE_LABELS = { composio: 'App', mcp: 'MCP server' } as const;
const SETUP_PATHS = { composio: '/integrations', mcp: '/integrations/mcp' } as const;

const toEnabled = (group: TAppToolGroup, tool: TDiscoveredTool): TEnabledTool => ({
  source: group.source,
  ownerId: group.ownerId,
  slug: tool.slug,
  description: (tool.schema.description || tool.schema.title).slice(0, 2000),
  inputSchema: {
    type: 'object',
    properties: tool.schema.properties as Record<string, Record<string, unknown>>,
    required: tool.schema.required,
  },
  version: tool.version,
  fixedValues: {},
});

/**
 * The agent's app tools: the tools of every app connection and MCP server of the sub-account (one
 * shape whatever the source), which of them the agent may call, and each input either fixed by
 * hand or 'Determined by model'. Saved as the agent's enabledTools.
 */
export const AppToolsCard = ({ agent, canEdit }: { agent: TAgent; canEdit: boolean }) => {
  const groups = useAppTools(agent.id);
  const { update } = useAgentMutations();
  const [drafts, setDrafts] = useState<Map<string, TEnabledTool>>(
    () => new Map(agent.enabledTools.map((tool) => [keyOf(tool), tool])),
  );
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDrafts(new Map(agent.enabledTools.map((tool) => [keyOf(tool), tool]))), [agent.enabledTools]);

  const groupOf = useMemo(
    () => new Map((groups.data?.groups ?? []).map((group) => [`${group.source}:${group.ownerId}`, group])),
    [groups.data],
  );
  const enabled = [...drafts.values()];
  const unavailable = enabled.filter((tool) => groups.data && !groupOf.has(`${tool.source}:${tool.ownerId}`));
  const notConnected = [
    ...new Set(
      enabled
        .map((tool) => groupOf.get(`${tool.source}:${tool.ownerId}`))
        .filter((group): group is TAppToolGroup => Boolean(group && group.status !== 'connected')),
    ),
  ];

  const toggle = (group: TAppToolGroup, tool: TDiscoveredTool, on: boolean) =>
    setDrafts((current) => {
      const next = new Map(current);
      const key = keyOf({ ...group, slug: tool.slug });
      if (on) next.set(key, current.get(key) ?? toEnabled(group, tool));
      else next.delete(key);
      return next;
    });

  const setValue = (key: string, name: string, value: unknown) =>
    setDrafts((current) => {
      const tool = current.get(key);
      if (!tool) return current;
      const fixedValues = { ...tool.fixedValues };
      if (value === undefined) delete fixedValues[name];
      else fixedValues[name] = value;
      return new Map(current).set(key, { ...tool, fixedValues });
    });

  const save = () => {
    setError(null);
    update.mutate(
      { agentId: agent.id, body: { enabledTools: [...drafts.values()] } },
      {
        onSuccess: () => toast.success('App tools saved'),
        onError: (thrown) => {
          if (thrown instanceof ApiError && thrown.code === 'VALIDATION_ERROR') setError(thrown.message);
          else showErrorDialog(thrown);
        },
      },
    );
  };

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">App tools</h2>
          <p className="text-sm text-muted">
            Actions of connected apps and MCP servers the agent can call during a chat.{' '}
            <Link to="/integrations" className="font-medium underline">
              Manage integrations
            </Link>
          </p>
        </div>
      </div>
      {groups.isLoading ? <Spinner label="Loading app tools" /> : null}
      {groups.data && !groups.data.groups.length ? (
        <p className="text-sm text-muted">
          No app or MCP server is connected yet. Connect one on the{' '}
          <Link to="/integrations" className="font-medium underline">
            Integrations page
          </Link>
          .
        </p>
      ) : null}
      {notConnected.length || unavailable.length ? (
        <div role="status" className="space-y-1 rounded-lg border border-border bg-surface-2 p-3 text-sm">
          {notConnected.map((group) => (
            <p key={`${group.source}:${group.ownerId}`} className="flex items-start gap-2">
              <AlertTriangle size={16} className="mt-0.5 shrink-0 text-danger" aria-hidden="true" />
              <span>
                {group.ownerName} is not connected: the agent cannot call its tools until you{' '}
                <Link to={SETUP_PATHS[group.source]} className="font-medium underline">
                  connect it
                </Link>
                .
              </span>
            </p>
          ))}
          {unavailable.length ? (
            <p className="flex items-start gap-2">
              <AlertTriangle size={16} className="mt-0.5 shrink-0 text-danger" aria-hidden="true" />
              <span>
                {unavailable.length === 1 ? 'One enabled tool belongs' : `${unavailable.length} enabled tools belong`}{' '}
                to an app or server that is no longer connected ({unavailable.map((tool) => tool.slug).join(', ')}).
                {canEdit ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() =>
                      setDrafts((current) => {
                        const next = new Map(current);
                        for (const tool of unavailable) next.delete(keyOf(tool));
                        return next;
                      })
                    }
                  >
                    Remove them
                  </Button>
                ) : null}
              </span>
            </p>
          ) : null}
        </div>
      ) : null}
      {groups.data?.groups.map((group) => (
        <fieldset
          key={`${group.source}:${group.ownerId}`}
          className="space-y-3 rounded-lg border border-border p-3"
          disabled={!canEdit}
        >
          <legend className="flex flex-wrap items-center gap-2 px-1 text-sm font-medium">
            <Blocks size={14} aria-hidden="true" /> {group.ownerName}
            <span className="text-xs text-muted">{SOURCE_LABELS[group.source]}</span>
            {group.sandbox ? <SandboxLabel /> : null}
            <IntegrationStatusBadge status={group.status} />
          </legend>
          {group.tools.length ? null : <p className="text-sm text-muted">No tools found.</p>}
          {group.tools.map((tool) => {
            const key = keyOf({ ...group, slug: tool.slug });
            const draft = drafts.get(key);
            const id = `app-tool-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
            const properties = tool.schema.properties as Record<string, FieldSchema>;
            return (
              <div key={tool.slug} className="space-y-2">
                <label htmlFor={id} className="flex items-start gap-2 text-sm">
                  <input
                    id={id}
                    type="checkbox"
                    className="mt-1"
                    checked={Boolean(draft)}
                    onChange={(event) => toggle(group, tool, event.target.checked)}
                  />
                  <span>
                    <span className="font-medium">{tool.schema.title || labelFromName(tool.slug.toLowerCase())}</span>{' '}
                    <code className="text-xs text-muted">{tool.slug}</code>
                    {tool.schema.description ? (
                      <span className="block text-muted">{tool.schema.description}</span>
                    ) : null}
                  </span>
                </label>
                {draft && Object.keys(properties).length ? (
                  <div className="ml-6 space-y-3 border-l border-border pl-3">
                    {Object.entries(properties).map(([name, fieldSchema]) => (
                      <DynamicField
                        key={name}
                        id={`${id}-field-${name}`}
                        name={name}
                        schema={fieldSchema}
                        required={tool.schema.required.includes(name)}
                        value={draft.fixedValues[name]}
                        disabled={!canEdit}
                        onChange={(value) => setValue(key, name, value)}
                      />
                    ))}
                  </div>
                ) : null}
              </div>
            );
          })}
        </fieldset>
      ))}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      {canEdit && (groups.data?.groups.length || agent.enabledTools.length) ? (
        <div className="flex justify-end">
          <Button onClick={save} disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save app tools'}
          </Button>
        </div>
      ) : null}
    </Card>
  );
};
