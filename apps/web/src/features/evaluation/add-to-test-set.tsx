import { REAL_CONVERSATIONS_TEMPLATE, type TAddTestCaseResponse, type TTemplatesResponse } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';

/**
 * "Add to test set" of the inbox: the conversation's last answered message becomes a replayable
 * case of a template (a new one, or one picked here), with the answer it got as the reference.
 */
export const AddToTestSet = ({ threadId }: { threadId: string }) => {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [templateId, setTemplateId] = useState('');
  const [name, setName] = useState(REAL_CONVERSATIONS_TEMPLATE);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<TAddTestCaseResponse | null>(null);
  const templates = useQuery({
    queryKey: ['evaluation', 'templates', 'for-test-set'],
    queryFn: () => api<TTemplatesResponse>('/api/templates', { silent: true }),
    enabled: open,
  });

  // Adding without picking a template goes to the sub-account's template of that name, if there is one.
  const sameName = (templates.data?.templates ?? []).find(
    (template) => template.templateName === (name.trim() || REAL_CONVERSATIONS_TEMPLATE),
  );

  const add = async () => {
    setBusy(true);
    try {
      const result = await api<TAddTestCaseResponse>('/api/evaluation/test-cases', {
        body: {
          threadId,
          ...(templateId ? { templateId } : { templateName: name.trim() || REAL_CONVERSATIONS_TEMPLATE }),
        },
      });
      setDone(result);
      await client.invalidateQueries({ queryKey: ['evaluation', 'templates'] });
      toast.success(
        result.added ? `Added to test set: ${result.templateName}` : `Already in test set: ${result.templateName}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
      >
        <FlaskConical size={14} aria-hidden="true" /> Add to test set
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Add to test set" className="max-w-md">
        <div className="space-y-4 text-sm">
          <p className="text-muted">
            The last answered message of this conversation becomes a test question. The earlier messages are replayed to
            the agent first, and the answer it got is the reference the new answer is compared with.
          </p>
          <div>
            <Label htmlFor="test-set-template">Template</Label>
            <Select id="test-set-template" value={templateId} onChange={(event) => setTemplateId(event.target.value)}>
              <option value="">{sameName ? `By name: ${sameName.templateName}` : 'New template'}</option>
              {(templates.data?.templates ?? []).map((template) => (
                <option key={template._id} value={template._id}>
                  {template.templateName}
                </option>
              ))}
            </Select>
          </div>
          {!templateId ? (
            <div>
              <Label htmlFor="test-set-name">New template name</Label>
              <Input
                id="test-set-name"
                value={name}
                maxLength={200}
                onChange={(event) => setName(event.target.value)}
                aria-describedby="test-set-name-hint"
              />
              <p id="test-set-name-hint" className="mt-1 text-xs text-muted">
                {sameName
                  ? `A template named “${sameName.templateName}” exists: the question is added to it.`
                  : 'A template of this name is made; later conversations added with this name join it.'}
              </p>
            </div>
          ) : null}
          {done ? (
            <p role="status">
              {done.added ? 'Added to' : 'Already in'} <strong>{done.templateName}</strong>.{' '}
              <Link to="/new-evaluation" className="underline decoration-primary decoration-2 underline-offset-4">
                Run it in the Bulk Tester
              </Link>
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button onClick={add} disabled={busy}>
              {busy ? 'Adding...' : 'Add'}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
};
