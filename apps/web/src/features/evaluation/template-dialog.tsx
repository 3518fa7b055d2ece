import { EVALUATION_MESSAGES, validateTemplateName } from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Input, Label } from '../../components/ui/input';

/** Create New Template: a name and Save (disabled while the name is blank). */
export const CreateTemplateDialog = ({
  open,
  onOpenChange,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (name: string) => Promise<boolean>;
}) => {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateTemplateName(name);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    const saved = await onSave(name.trim());
    setSaving(false);
    if (saved) {
      setName('');
      setError(null);
      onOpenChange(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create New Template">
      <form onSubmit={submit} noValidate>
        <Label htmlFor="template-name">Template name</Label>
        <Input
          id="template-name"
          value={name}
          maxLength={200}
          onChange={(event) => {
            setName(event.target.value);
            setError(event.target.value.trim() ? null : EVALUATION_MESSAGES.templateName);
          }}
          aria-describedby={error ? 'template-name-error' : undefined}
          aria-invalid={Boolean(error)}
        />
        <FieldError id="template-name-error">{error}</FieldError>
        <div className="mt-4 flex justify-end">
          <Button type="submit" disabled={!name.trim() || saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
};
