import {
  CATEGORY_CHECK_KEYS,
  EVALUATION_MESSAGES,
  EVALUATION_STORAGE_KEYS,
  INSPIRATION_URL,
  QUESTION_CATEGORIES,
  RED_TEAM_BY_ID,
  type TEvaluationType,
  type TQuestionCategory,
  validateRun,
} from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { FieldError } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { AdaptiveAttacksCard } from './adaptive-attacks-card';
import { saveTemplate, startEvaluation, useTemplates, useTestingModels } from './api';
import { GeneratedQuestionsDialog, GenerateQuestionsDialog } from './generate-dialogs';
import { buildStartPayload, buildTemplateData, valuesFromTemplate } from './payload';
import { QuestionGroup } from './question-group';
import { QuestionsCsv } from './questions-csv';
import { SettingsCard } from './settings-card';
import { CreateTemplateDialog } from './template-dialog';
import { useUnsavedGuard } from './unsaved-guard';
import { UpgradeEntry } from './upgrade-entry';
import { useQuestionGeneration } from './use-question-generation';
import { clearStoredValues, newQuestion, useTestSettings } from './use-test-settings';

const GROUP_TITLES: Record<TQuestionCategory, string> = {
  custom: 'Add custom questions',
  compliance: 'Add compliance',
  promptHacking: 'Add prompt hacking',
};

/** Generated categories go to the list of the same kind; industry, angry and custom labels are custom questions. */
const listForGenerated = (category: string): TQuestionCategory =>
  category === 'compliance'
    ? 'compliance'
    : category === 'prompthacking' || category.startsWith('redteam:')
      ? 'promptHacking'
      : 'custom';

/** The test settings screen (spec/evaluation.md 2.1) for either evaluation type. */
export const TestSettingsPage = ({ type }: { type: TEvaluationType }) => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useTemplates();
  const models = useTestingModels();
  const form = useTestSettings();
  const { values, set, setMany, updateList } = form;
  const [open, setOpen] = useState<Record<TQuestionCategory, boolean>>({
    custom: false,
    compliance: false,
    promptHacking: false,
  });
  const [templateDialog, setTemplateDialog] = useState(false);
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<string | null>(null);
  const [upgrade, setUpgrade] = useState(false);
  const generation = useQuestionGeneration({
    testingModel: values.testingModel,
    prompt: values.settings.prompt,
    assistantId: values.settings.assistant_id,
  });
  const backPath =
    type === 'openai-assistants' ? '/new-evaluation/openai-assistants' : '/new-evaluation/openai-chatcompletion';

  useEffect(() => {
    if (templates.isError) toast.error(EVALUATION_MESSAGES.fetchTemplatesFailed);
  }, [templates.isError]);

  // Escape closes the question group panels (dialogs close themselves).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented)
        setOpen({ custom: false, compliance: false, promptHacking: false });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const createTemplate = async (name: string, quiet = false) => {
    try {
      const { templateId } = await saveTemplate(name, buildTemplateData(values));
      await queryClient.invalidateQueries({ queryKey: ['evaluation', 'templates'] });
      set('template', templateId);
      form.setDirty(false);
      if (!quiet) toast.success(EVALUATION_MESSAGES.templateSaved);
      return true;
    } catch {
      toast.error(EVALUATION_MESSAGES.saveTemplateFailed);
      return false;
    }
  };

  const guard = useUnsavedGuard(form.dirty && !running, () =>
    createTemplate(`Draft ${new Date().toLocaleString()}`, false),
  );

  const selectTemplate = (id: string) => {
    if (id === 'create') {
      setTemplateDialog(true);
      return;
    }
    if (!id) {
      set('template', '');
      return;
    }
    const template = templates.data?.templates.find((item) => item._id === id);
    if (!template) return;
    const patch = valuesFromTemplate(template);
    setMany(patch);
    setOpen({
      custom: Boolean(patch.custom?.length),
      compliance: Boolean(patch.compliance?.length),
      promptHacking: Boolean(patch.promptHacking?.length),
    });
    toast.success(EVALUATION_MESSAGES.loadedTemplate(template.templateName));
  };

  const addGenerated = (category: string, index: number) => {
    const item = generation.results?.[category]?.[index];
    if (!item) return;
    const list = listForGenerated(category);
    const redTeam = category.startsWith('redteam:') ? RED_TEAM_BY_ID.get(category.slice('redteam:'.length)) : undefined;
    updateList(list, (questions) => [
      ...questions,
      newQuestion({
        text: item.question,
        successCriteria: item.criteria,
        ...(item.whenToAsk ? { whenToAsk: item.whenToAsk } : {}),
        ...(category.startsWith('redteam:') ? { redTeam: category.slice('redteam:'.length) } : {}),
        // Indirect injection: the poisoned document planted for the run, and checks it was not obeyed.
        ...(redTeam?.plantedDocument ? { plantedDocument: redTeam.plantedDocument } : {}),
        ...(redTeam?.checks ? { checks: redTeam.checks.map((check) => ({ ...check })) } : {}),
        isEditing: false,
        isSuccessCriteriaEditing: false,
      }),
    ]);
    set('checkedItems', { ...values.checkedItems, [CATEGORY_CHECK_KEYS[list]]: true });
    generation.mark(category, index, 'added');
    toast.success(EVALUATION_MESSAGES.questionAdded(list));
  };

  const run = async () => {
    const input = {
      testingModel: values.testingModel,
      checkedItems: values.checkedItems,
      customQuestions: values.custom,
      complianceQuestions: values.compliance,
      promptHackingQuestions: values.promptHacking,
      settings: values.settings,
    };
    const problem = validateRun(input);
    if (problem) {
      setRunError(problem.message);
      toast.error(problem.message);
      return;
    }
    setRunError(null);
    setRunning(true);
    try {
      const started = await startEvaluation(type, buildStartPayload(type, values));
      const count = storage.get<number>(EVALUATION_STORAGE_KEYS.chatRunCount, 0);
      guard.allowNext();
      clearStoredValues();
      storage.set(EVALUATION_STORAGE_KEYS.chatRunCount, count + 1);
      navigate(`/new-evaluation/running?run=${started.runId}`);
    } catch (error) {
      setRunning(false);
      if (
        error instanceof ApiError &&
        (error.status === 402 || error.status === 403) &&
        error.code?.startsWith('BILLING_')
      ) {
        setUpgrade(true);
        return;
      }
      // A missing or refused provider key: the shared dialog with its title and the way to the provider settings.
      if (error instanceof ApiError && error.reason) {
        setRunError(error.message);
        showErrorDialog(error);
        return;
      }
      if (error instanceof ApiError && error.status === 422) {
        setRunError(error.message);
        toast.error(error.message || EVALUATION_MESSAGES.startFailed);
        return;
      }
      toast.error(error instanceof Error && error.message ? error.message : EVALUATION_MESSAGES.startFailed);
      if (error instanceof ApiError && error.status >= 500) showErrorDialog(error, run);
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-5 pb-24">
      <div>
        <h1 className="text-2xl font-semibold">Test settings</h1>
        <p className="mt-1 text-sm text-muted">
          {type === 'openai-assistants' ? 'Assistant' : 'Chat completion'} test
          {values.settings.evaluationName ? `: ${values.settings.evaluationName}` : ''}. A simulated user talks to the
          agent and asks your questions; a judge grades every answer.
        </p>
      </div>
      <SettingsCard
        values={values}
        templates={templates.data?.templates ?? []}
        models={models.data?.models ?? []}
        onTemplate={selectTemplate}
        onChange={set}
      />

      <div className="space-y-3">
        {QUESTION_CATEGORIES.map((category) => (
          <QuestionGroup
            key={category}
            title={GROUP_TITLES[category]}
            included={values.checkedItems[CATEGORY_CHECK_KEYS[category]]}
            open={open[category]}
            questions={values[category]}
            onIncludedChange={(included) =>
              set('checkedItems', { ...values.checkedItems, [CATEGORY_CHECK_KEYS[category]]: included })
            }
            onOpenChange={(next) => setOpen((previous) => ({ ...previous, [category]: next }))}
            onAdd={() => updateList(category, (list) => [...list, newQuestion()])}
            onChange={(id, patch) =>
              updateList(category, (list) => list.map((item) => (item.id === id ? { ...item, ...patch } : item)))
            }
            onRemove={(id) => updateList(category, (list) => list.filter((item) => item.id !== id))}
          />
        ))}
      </div>

      <AdaptiveAttacksCard
        // A loaded template brings its own goals: the card starts again from them.
        key={values.template}
        value={values.settings.adaptiveAttacks}
        testingModel={values.testingModel}
        models={models.data?.models ?? []}
        onChange={(adaptiveAttacks) => set('settings', { ...values.settings, adaptiveAttacks })}
      />

      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={generation.open}>
          <Sparkles size={16} aria-hidden="true" /> Generate Questions with AI
        </Button>
        <a
          href={INSPIRATION_URL}
          target="_blank"
          rel="noreferrer noopener"
          className="inline-flex h-10 items-center gap-2 rounded-lg px-4 text-sm font-medium underline decoration-primary decoration-2 underline-offset-4"
        >
          Find inspiration here <ExternalLink size={14} aria-hidden="true" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
      <QuestionsCsv
        questions={values.custom}
        onImport={(imported) => {
          updateList('custom', (list) => [...list, ...imported]);
          setOpen((previous) => ({ ...previous, custom: true }));
        }}
      />

      <footer className="sticky bottom-0 -mx-4 flex items-center justify-between gap-3 border-t border-border bg-background/95 px-4 py-3 backdrop-blur">
        <Button variant="secondary" onClick={() => navigate(backPath)}>
          Back
        </Button>
        <div className="flex min-w-0 items-center gap-3">
          <FieldError id="run-error">{runError}</FieldError>
          <Button
            onClick={run}
            disabled={!values.testingModel || running}
            aria-describedby={runError ? 'run-error' : undefined}
          >
            {running ? 'Running...' : 'Run'}
          </Button>
        </div>
      </footer>

      <CreateTemplateDialog
        open={templateDialog}
        onOpenChange={setTemplateDialog}
        onSave={(name) => createTemplate(name)}
      />
      <GenerateQuestionsDialog
        open={generation.generateOpen}
        busy={generation.busy}
        onOpenChange={generation.setGenerateOpen}
        onGenerate={generation.generate}
      />
      <GeneratedQuestionsDialog
        open={generation.reviewOpen}
        results={generation.results ?? {}}
        onOpenChange={generation.setReviewOpen}
        onAdd={addGenerated}
        onReject={(category, index) => {
          generation.mark(category, index, 'rejected');
          toast.info(EVALUATION_MESSAGES.questionRejected);
        }}
        onGenerateNew={generation.generateNew}
      />
      <UpgradeEntry open={upgrade} onOpenChange={setUpgrade} />
      {guard.dialog}
    </div>
  );
};
