import { type FieldSchema, type TAgent, type TAgentToolInput, ZAgentTool } from '@switchboard/core';
import { Plus, Trash2, Wrench } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { useAgentMutations } from './api';
import { DynamicField } from './dynamic-field';

interface Draft {
  key: string;
  tool: TAgentToolInput;
  schemaText: string;
}

const EXAMPLE_SCHEMA = JSON.stringify(
  {
    type: 'object',
    properties: { date: { type: 'string', description: 'The day, as YYYY-MM-DD' } },
    required: ['date'],
  },
  null,
  2,
);

const toDraft = (tool: TAgentToolInput, index: number): Draft => ({
  key: tool.id ?? `new-${index}`,
  tool,
  schemaText: JSON.stringify(tool.inputSchema ?? { type: 'object', properties: {} }, null, 2),
});

/** The agent's HTTP tools: what the model may call during a chat, with JSON-schema inputs. */
export const ToolsEditor = ({ agent, canEdit }: { agent: TAgent; canEdit: boolean }) => {
  const [drafts, setDrafts] = useState<Draft[]>(() => agent.tools.map(toDraft));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { update } = useAgentMutations();

  useEffect(() => setDrafts(agent.tools.map(toDraft)), [agent.tools]);

  const patch = (key: string, change: Partial<TAgentToolInput>) =>
    setDrafts((current) => current.map((d) => (d.key === key ? { ...d, tool: { ...d.tool, ...change } } : d)));

  const add = () =>
    setDrafts((current) => [
      ...current,
      {
        key: `new-${Date.now()}`,
        tool: {
          name: '',
          description: '',
          method: 'POST',
          url: '',
          headers: {},
          inputSchema: JSON.parse(EXAMPLE_SCHEMA),
          fixedValues: {},
        },
        schemaText: EXAMPLE_SCHEMA,
      },
    ]);

  const save = () => {
    const next: Record<string, string> = {};
    const tools: TAgentToolInput[] = [];
    drafts.forEach((draft, index) => {
      let inputSchema: unknown;
      try {
        inputSchema = JSON.parse(draft.schemaText);
      } catch {
        next[`${index}.inputSchema`] = 'Enter a valid JSON schema';
        return;
      }
      const tool = { ...draft.tool, inputSchema } as TAgentToolInput;
      const parsed = ZAgentTool.safeParse(tool);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) next[`${index}.${String(issue.path[0])}`] ??= issue.message;
      }
      tools.push(tool);
    });
    setErrors(next);
    if (Object.keys(next).length) return;
    update.mutate(
      { agentId: agent.id, body: { tools } },
      {
        onSuccess: () => toast.success('Tools saved'),
        onError: (error) => {
          if (error instanceof ApiError && error.field) {
            setErrors({
              [error.field
                .replace(/^(body\.)?tools\./, '')
                .split('.')
                .slice(0, 2)
                .join('.')]: error.message,
            });
          } else showErrorDialog(error);
        },
      },
    );
  };

  const errorOf = (index: number, field: string) => errors[`${index}.${field}`] ?? null;

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">Tools</h2>
          <p className="text-sm text-muted">HTTP endpoints the agent can call during a chat.</p>
        </div>
        {canEdit ? (
          <Button variant="secondary" onClick={add}>
            <Plus size={16} aria-hidden="true" /> Add tool
          </Button>
        ) : null}
      </div>
      {drafts.length === 0 ? <p className="text-sm text-muted">No tools yet.</p> : null}
      {drafts.map((draft, index) => {
        let schema: { properties?: Record<string, FieldSchema>; required?: string[] } = {};
        try {
          schema = JSON.parse(draft.schemaText);
        } catch {
          schema = {};
        }
        const prefix = `tool-${draft.key}`;
        return (
          <fieldset key={draft.key} className="space-y-3 rounded-lg border border-border p-3" disabled={!canEdit}>
            <legend className="flex items-center gap-1 px-1 text-sm font-medium">
              <Wrench size={14} aria-hidden="true" /> {draft.tool.name || 'New tool'}
            </legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <Label htmlFor={`${prefix}-name`}>Tool name</Label>
                <Input
                  id={`${prefix}-name`}
                  value={draft.tool.name}
                  onChange={(e) => patch(draft.key, { name: e.target.value })}
                  aria-invalid={Boolean(errorOf(index, 'name'))}
                />
                <FieldError>{errorOf(index, 'name')}</FieldError>
              </div>
              <div>
                <Label htmlFor={`${prefix}-method`}>Method</Label>
                <Select
                  id={`${prefix}-method`}
                  value={draft.tool.method ?? 'POST'}
                  onChange={(e) => patch(draft.key, { method: e.target.value as 'POST' })}
                >
                  {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => (
                    <option key={method}>{method}</option>
                  ))}
                </Select>
              </div>
            </div>
            <div>
              <Label htmlFor={`${prefix}-url`}>URL</Label>
              <Input
                id={`${prefix}-url`}
                value={draft.tool.url}
                placeholder="https://api.example.com/slots/{date}"
                onChange={(e) => patch(draft.key, { url: e.target.value })}
                aria-invalid={Boolean(errorOf(index, 'url'))}
              />
              <FieldError>{errorOf(index, 'url')}</FieldError>
            </div>
            <div>
              <Label htmlFor={`${prefix}-description`}>Description (tells the model when to call it)</Label>
              <Input
                id={`${prefix}-description`}
                value={draft.tool.description ?? ''}
                onChange={(e) => patch(draft.key, { description: e.target.value })}
              />
            </div>
            <div>
              <Label htmlFor={`${prefix}-schema`}>Input schema (JSON schema)</Label>
              <Textarea
                id={`${prefix}-schema`}
                className="font-mono text-xs"
                rows={6}
                value={draft.schemaText}
                onChange={(e) =>
                  setDrafts((current) =>
                    current.map((d) => (d.key === draft.key ? { ...d, schemaText: e.target.value } : d)),
                  )
                }
                aria-invalid={Boolean(errorOf(index, 'inputSchema'))}
              />
              <FieldError>{errorOf(index, 'inputSchema')}</FieldError>
            </div>
            {Object.keys(schema.properties ?? {}).length ? (
              <div className="space-y-3">
                <p className="text-sm font-medium">Input values</p>
                {Object.entries(schema.properties ?? {}).map(([name, fieldSchema]) => (
                  <div key={name}>
                    <DynamicField
                      id={`${prefix}-field-${name}`}
                      name={name}
                      schema={fieldSchema}
                      required={(schema.required ?? []).includes(name)}
                      value={draft.tool.fixedValues?.[name]}
                      disabled={!canEdit}
                      onChange={(value) => {
                        const fixed = { ...(draft.tool.fixedValues ?? {}) };
                        if (value === undefined) delete fixed[name];
                        else fixed[name] = value;
                        patch(draft.key, { fixedValues: fixed });
                      }}
                    />
                    <FieldError>{errorOf(index, 'fixedValues')}</FieldError>
                  </div>
                ))}
              </div>
            ) : null}
            {canEdit ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setDrafts((current) => current.filter((d) => d.key !== draft.key))}
              >
                <Trash2 size={14} aria-hidden="true" /> Remove tool
              </Button>
            ) : null}
          </fieldset>
        );
      })}
      {canEdit && (drafts.length || agent.tools.length) ? (
        <div className="flex justify-end">
          <Button onClick={save} disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save tools'}
          </Button>
        </div>
      ) : null}
    </Card>
  );
};
