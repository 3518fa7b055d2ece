import {
  cleanBudget,
  DESCRIPTION_MAX,
  MARKETPLACE_CATEGORIES,
  PRICE_TYPE_LABELS,
  PRICE_TYPES,
  TIMEFRAMES,
  TITLE_MAX,
  type TProject,
  ZUpdateProjectRequest,
} from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { toast } from '../../lib/toast';
import { useProjectMutations } from './api';

/** The author edits a project's texts, budget, timeframe and category. */
export const EditProjectDialog = ({ project, onClose }: { project: TProject; onClose: () => void }) => {
  const { update } = useProjectMutations();
  const [form, setForm] = useState({
    title: project.title,
    description: project.description,
    budget: String(project.priceValue),
    priceType: project.priceType,
    timeframe: project.timeframe,
    category: project.category,
  });
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZUpdateProjectRequest.safeParse({
      title: form.title,
      description: form.description,
      priceValue: Math.round(Number(cleanBudget(form.budget)) || 0),
      priceType: form.priceType,
      timeframe: form.timeframe,
      category: form.category,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the fields');
      return;
    }
    update.mutate(
      { id: project.id, body: parsed.data },
      {
        onSuccess: () => {
          toast.success('Project updated');
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Edit project" className="max-w-xl">
      <form onSubmit={submit} noValidate className="space-y-3">
        <div>
          <Label htmlFor="edit-title">Project title</Label>
          <Input
            id="edit-title"
            maxLength={TITLE_MAX}
            value={form.title}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        <div>
          <Label htmlFor="edit-description">Description</Label>
          <Textarea
            id="edit-description"
            rows={6}
            maxLength={DESCRIPTION_MAX}
            value={form.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="edit-budget">Budget (USD)</Label>
            <Input
              id="edit-budget"
              type="number"
              min={0}
              step={0.01}
              value={form.budget}
              onChange={(e) => set({ budget: cleanBudget(e.target.value) })}
            />
          </div>
          <div>
            <Label htmlFor="edit-schedule">Schedule</Label>
            <Select
              id="edit-schedule"
              value={form.priceType}
              onChange={(e) => set({ priceType: e.target.value as TProject['priceType'] })}
            >
              {PRICE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {PRICE_TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="edit-timeframe">Timeframe</Label>
            <Select id="edit-timeframe" value={form.timeframe} onChange={(e) => set({ timeframe: e.target.value })}>
              {TIMEFRAMES.map((item) => (
                <option key={item}>{item}</option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="edit-category">Category</Label>
            <Select id="edit-category" value={form.category} onChange={(e) => set({ category: e.target.value })}>
              {MARKETPLACE_CATEGORIES.map((item) => (
                <option key={item}>{item}</option>
              ))}
            </Select>
          </div>
        </div>
        <FieldError>{error}</FieldError>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            Save changes
          </Button>
        </div>
      </form>
    </Dialog>
  );
};
