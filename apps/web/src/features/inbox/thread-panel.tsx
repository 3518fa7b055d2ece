import type { TInboxLabel, TTeamInboxThread } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Card } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { inboxBase, useAssignees } from './api';
import { LABEL_CLASSES } from './labels';

/** Who the conversation is given to, and its labels. */
export const ThreadPanel = ({
  subaccountId,
  thread,
  labels,
  canAct,
}: {
  subaccountId: string;
  thread: TTeamInboxThread;
  labels: TInboxLabel[];
  canAct: boolean;
}) => {
  const client = useQueryClient();
  const people = useAssignees(subaccountId);
  const url = `${inboxBase(subaccountId)}/threads/${thread.threadId}`;
  const refresh = () => void client.invalidateQueries({ queryKey: ['team-inbox', subaccountId] });
  const assign = useMutation({
    mutationFn: (userId: string | null) => api(`${url}/assignee`, { method: 'PUT', body: { userId } }),
    onSuccess: refresh,
  });
  const setLabels = useMutation({
    mutationFn: (labelIds: string[]) => api(`${url}/labels`, { method: 'PUT', body: { labelIds } }),
    onSuccess: refresh,
  });
  const toggle = (labelId: string) =>
    setLabels.mutate(
      thread.labelIds.includes(labelId)
        ? thread.labelIds.filter((id) => id !== labelId)
        : [...thread.labelIds, labelId],
    );

  return (
    <Card className="space-y-3">
      <div>
        <Label htmlFor={`assignee-${thread.threadId}`}>Assigned to</Label>
        <Select
          id={`assignee-${thread.threadId}`}
          value={thread.assignedUserId ?? ''}
          disabled={!canAct || assign.isPending}
          onChange={(event) => assign.mutate(event.target.value || null)}
        >
          <option value="">Nobody</option>
          {(people.data?.assignees ?? []).map((person) => (
            <option key={person.userId} value={person.userId}>
              {person.name ?? person.email}
            </option>
          ))}
          {thread.assignedUserId && !people.data?.assignees.some((p) => p.userId === thread.assignedUserId) ? (
            <option value={thread.assignedUserId}>Someone no longer here</option>
          ) : null}
        </Select>
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Labels</legend>
        {labels.length === 0 ? (
          <p className="text-sm text-muted">No labels yet. Add them under Labels and replies.</p>
        ) : null}
        <ul className="mt-1 flex flex-wrap gap-2">
          {labels.map((label) => {
            const on = thread.labelIds.includes(label.labelId);
            return (
              <li key={label.labelId}>
                <button
                  type="button"
                  aria-pressed={on}
                  disabled={!canAct || setLabels.isPending}
                  onClick={() => toggle(label.labelId)}
                  className={
                    on
                      ? `rounded-full px-3 py-1 text-xs font-medium text-white ${LABEL_CLASSES[label.color]}`
                      : 'rounded-full border border-border px-3 py-1 text-xs font-medium hover:bg-surface-2'
                  }
                >
                  {label.name}
                </button>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </Card>
  );
};
