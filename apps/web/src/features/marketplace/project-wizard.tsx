import { WIZARD_STEPS, wizardProgress } from '@switchboard/core';
import { CheckCircle2 } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { cn } from '../../lib/cn';
import type { ProjectWizardState } from './use-project-wizard';
import { WizardStep } from './wizard-steps';

/** The Create AI Project dialog: ten steps, a progress bar, Continue and Back. */
export const ProjectWizard = ({ wizard, signedIn }: { wizard: ProjectWizardState; signedIn: boolean }) => {
  const progress = wizardProgress(wizard.index, WIZARD_STEPS.length);
  const current = WIZARD_STEPS[wizard.index];
  const last = wizard.step === 'review';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void wizard.next();
  };
  return (
    <Dialog
      open={wizard.open}
      onOpenChange={(next) => (next ? undefined : wizard.close())}
      dismissible={false}
      title={wizard.created ? 'Project Created!' : 'Create AI Project'}
      className="max-w-xl"
    >
      {wizard.created ? (
        <div className="space-y-3 py-6 text-center" role="status">
          <CheckCircle2 className="mx-auto text-primary" size={48} aria-hidden="true" />
          <p className="text-sm">Your project has been successfully submitted and is now live.</p>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <div>
            <div className="mb-1 flex justify-between text-xs text-muted">
              <span>
                Step {wizard.index + 1} of {WIZARD_STEPS.length}: {current?.label}
              </span>
              <span>{progress}%</span>
            </div>
            <div
              role="progressbar"
              aria-label="Wizard progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="h-2 overflow-hidden rounded-full bg-surface-2"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
            </div>
            <ol className="mt-2 hidden grid-cols-10 gap-1 text-center text-[10px] sm:grid" aria-label="Steps">
              {WIZARD_STEPS.map((item, index) => (
                <li
                  key={item.key}
                  aria-current={index === wizard.index ? 'step' : undefined}
                  className={cn(index === wizard.index ? 'font-semibold text-foreground' : 'text-muted')}
                >
                  {item.label}
                </li>
              ))}
            </ol>
          </div>
          <div className="min-h-40">
            <WizardStep wizard={wizard} signedIn={signedIn} />
          </div>
          {wizard.error ? (
            <p role="alert" className="rounded-lg border border-danger/40 bg-danger/10 p-3 text-sm text-danger">
              {wizard.error}
            </p>
          ) : null}
          <div className="flex justify-between gap-2">
            <Button variant="secondary" onClick={wizard.back} disabled={wizard.index === 0 || wizard.submitting}>
              Back
            </Button>
            <Button type="submit" disabled={wizard.submitting}>
              {wizard.submitting ? 'Processing...' : last ? 'Submit Project' : 'Continue'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
};
